import StubdEngine

/// One way an instance breaks its schema, with both positions so a user can find the value and the rule.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// JSON pointer to the offending value in the instance (`/main/temp`; `""` for the whole document).
    public let instancePath: String
    /// Where the rule is in the schema document (`#/components/schemas/Weather/properties/main/type`).
    public let schemaPath: String
    /// The keyword that failed (`type`, `required`, `additionalProperties`, `$ref`, ...).
    public let keyword: String
    /// What was wrong, and where possible what would be right.
    public let message: String

    public init(instancePath: String, schemaPath: String, keyword: String, message: String) {
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.keyword = keyword
        self.message = message
    }

    public var description: String {
        "\(instancePath.isEmpty ? "(root)" : instancePath): \(message) [\(schemaPath)]"
    }
}

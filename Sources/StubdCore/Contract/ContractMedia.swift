import Foundation
package import StubdEngine
/// One media type of a response or request body (`application/json` and its schema).
package struct ContractMedia: Sendable {
    /// As the spec writes it: `application/json`, `application/*`, `*/*`.
    package let type: String
    /// Nil when the spec gives no schema: anything goes.
    package let schema: JSONSchema?
    /// A form or multipart body's `encoding`, by field name; empty for other media types.
    package let encoding: [String: ContractEncoding]
    /// The spec's `example`, or its first `examples` entry by name (its `value`): what stubd's own
    /// answers (a 404, strict mode's 422) are sent as when the spec declares their status in this type.
    package let example: JSONValue?
    /// Where the schema is in the spec's document (`#/components/schemas/Error`), to sample a body from.
    package let schemaPointer: String?
    /// The schema as an XML body reads it (its `xml` names and types), for an XML media type with a schema.
    package let xml: XMLSchemaGuide?

    package init(type: String, schema: JSONSchema?, encoding: [String: ContractEncoding] = [:], example: JSONValue? = nil,
                 schemaPointer: String? = nil, xml: XMLSchemaGuide? = nil) {
        self.type = type
        self.schema = schema
        self.encoding = encoding
        self.example = example
        self.schemaPointer = schemaPointer
        self.xml = xml
    }

    /// Whether a `Content-Type` (parameters aside) falls under this entry, and how exactly: 2 for the
    /// same type, 1 for `type/*`, 0 for `*/*`; nil for no match.
    package func accepts(_ contentType: String) -> Int? {
        let wanted = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        let declared = type.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        if declared == wanted { return 2 }
        if declared == "*/*" { return 0 }
        if declared.hasSuffix("/*"), wanted.hasPrefix(declared.dropLast()) { return 1 }
        return nil
    }
}

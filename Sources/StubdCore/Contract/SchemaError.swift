import StubdEngine

/// Why a schema could not be compiled: every problem found, each with its place in the schema document.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem per entry, each starting with its schema location (`#/components/schemas/Pet/pattern: ...`).
    public let problems: [String]

    public var description: String { problems.joined(separator: "\n") }
}

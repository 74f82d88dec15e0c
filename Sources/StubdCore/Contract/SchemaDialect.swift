import StubdEngine

/// Which schema language a document speaks: the two differ in a few keywords, not in shape.
public enum SchemaDialect: Sendable, Hashable {
    /// OpenAPI 3.0's Schema Object: `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`
    /// beside `minimum`/`maximum`, and a `$ref` that replaces its siblings.
    case openAPI30
    /// JSON Schema 2020-12, as OpenAPI 3.1 uses it: `type: [..., "null"]`, numeric
    /// `exclusiveMinimum`/`exclusiveMaximum`, and a `$ref` that applies beside its siblings.
    case jsonSchema2020
}

/// One compiled schema (a location in the schema document) and its keywords.
///
/// A class, so a `$ref` can point back at a node still being compiled: recursive schemas become
/// cycles in this graph instead of infinite trees. `keywords` is written once, by the compiler,
/// before the graph is handed out, and never again, hence `@unchecked Sendable`.
final class SchemaNode: @unchecked Sendable {
    /// `#/components/schemas/Weather/properties/main`, the node's place in its document.
    let location: String
    var keywords: [SchemaKeyword] = []

    init(location: String) {
        self.location = location
    }
}

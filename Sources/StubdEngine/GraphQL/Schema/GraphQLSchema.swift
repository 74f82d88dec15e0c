/// A GraphQL schema, as much of it as a stub's answer is held to (`stubd check --graphql-schema`):
/// its types by name and the root type of each operation type. Read from SDL (`schema.graphqls`) by
/// `GraphQLSchemaReader`, beside the executable-document reader that matching uses: the same lexer,
/// no dependency (GraphQLSwift 4.3.0 would cost a clean build 27,000 lines and swift-collections).
package struct GraphQLSchema: Sendable {
    package let types: [String: GraphQLSchemaType]
    /// `query`, `mutation`, `subscription` → the root type's name (`schema { … }`, else `Query`,
    /// `Mutation`, `Subscription` when defined).
    package let roots: [String: String]

    package static let builtInScalars: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]

    package init(types: [String: GraphQLSchemaType], roots: [String: String]) {
        self.types = types
        self.roots = roots
    }

    /// Reads SDL; a syntax error or a definition that does not hold together throws, at its line and column.
    package init(parsing text: String) throws(GraphQLSchemaError) {
        let tokens: [GraphQLToken]
        do { tokens = try GraphQLLexer.tokens(text) } catch { throw GraphQLSchemaError(error) }
        var reader = GraphQLSchemaReader(tokens: tokens)
        self = try reader.schema()
    }

    /// The root type of `operationType` (`query`, `mutation`, `subscription`).
    package func root(_ operationType: String) -> GraphQLSchemaType? {
        roots[operationType].flatMap { types[$0] }
    }

    /// The object types a value of `type` may be: itself for an object, the implementers of an
    /// interface, a union's members.
    package func possibleTypes(of type: GraphQLSchemaType) -> Set<String> {
        switch type.kind {
        case .object: [type.name]
        case .union: Set(type.members)
        case .interface: Set(types.values.filter { $0.kind == .object && $0.interfaces.contains(type.name) }.map(\.name))
        default: []
        }
    }

    /// Whether a fragment on `condition` applies to a value of the object type `object`.
    package func fragment(on condition: String, appliesTo object: String) -> Bool {
        if condition == object { return true }
        guard let type = types[condition] else { return false }
        return possibleTypes(of: type).contains(object)
    }
}

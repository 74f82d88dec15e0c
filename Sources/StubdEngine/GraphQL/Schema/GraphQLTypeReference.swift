/// A field's type as a schema writes it: `Weather`, `[Day!]!`.
package indirect enum GraphQLTypeReference: Sendable, Hashable, CustomStringConvertible {
    case named(String)
    case list(GraphQLTypeReference)
    case nonNull(GraphQLTypeReference)

    /// The type under every list and `!`: `Day` in `[Day!]!`.
    package var namedType: String {
        switch self {
        case .named(let name): name
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    package var description: String {
        switch self {
        case .named(let name): name
        case .list(let inner): "[\(inner)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }
}

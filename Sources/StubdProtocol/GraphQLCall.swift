import Foundation

/// A GraphQL request as the journal read it (`GET /__stubd/requests`, an entry's `graphQL`): the
/// operation it ran and its variables, read from its body as an export shows it (secret fields masked).
public struct GraphQLCall: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The operation's name: the one the request sent, else its query's only operation's; nil for an
    /// anonymous query, or a persisted query's hash alone.
    public let operationName: String?
    /// The request's variables; `{}` when it sent none.
    public let variables: EmbeddedJSON

    /// A call as given.
    public init(operationName: String?, variables: EmbeddedJSON) {
        self.operationName = operationName
        self.variables = variables
    }

    /// Whether the call's variables hold every member of `expected`, objects member by member (as a
    /// route's `variablesMatch: subset`), arrays and values equal.
    public func variablesInclude(_ expected: EmbeddedJSON) -> Bool { Self.includes(variables, expected) }

    private static func includes(_ got: EmbeddedJSON, _ want: EmbeddedJSON) -> Bool {
        switch (got, want) {
        case (.object(let g), .object(let w)): return w.allSatisfy { key, value in g[key].map { includes($0, value) } ?? false }
        case (.integer(let g), .number(let w)): return Double(g) == w
        case (.number(let g), .integer(let w)): return g == Double(w)
        default: return got == want
        }
    }

    /// `GetWeather {"city":"Paris"}`, or `(anonymous)`; variables left out when there are none.
    public var description: String {
        let name = operationName ?? "(anonymous)"
        if case .object(let members) = variables, members.isEmpty { return name }
        return "\(name) \(String(decoding: AdminCoding.encode(variables), as: UTF8.self))"
    }
}

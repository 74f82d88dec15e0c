/// What a route's `graphql:` asks of a request: an operation name, a query's shape (see
/// `GraphQLDocument`), variables equal to these or including them. Each left out is not checked.
package struct GraphQLMatch: Sendable, Hashable {
    package enum VariablesMatch: String, Sendable, Hashable {
        /// The request's variables are exactly these (key order does not matter).
        case equal
        /// The request's variables include these (objects compared member by member), and may carry more.
        case subset
    }

    package var operationName: String?
    package var document: GraphQLDocument?
    /// The query as the stub wrote it: its SHA-256 is the hash an Apollo client that was built
    /// from the same text sends (`GraphQLEndpoints.persistedQueries`).
    package var queryText: String?
    package var variables: JSONValue?
    package var variablesMatch = VariablesMatch.equal

    package init(operationName: String? = nil, document: GraphQLDocument? = nil, queryText: String? = nil,
                 variables: JSONValue? = nil, variablesMatch: VariablesMatch = .equal) {
        self.operationName = operationName
        self.document = document
        self.queryText = queryText
        self.variables = variables
        self.variablesMatch = variablesMatch
    }

    /// The operation this route answers, by name: the one it names, else its query's only one.
    package var shownOperation: String {
        operationName ?? document?.operation(named: nil)?.name ?? "(anonymous)"
    }

    /// How the route table, hit counts and coverage show the route: `graphql GetWeather on /graphql`,
    /// with the variables when they decide between two answers. It reads as a name to `RouteReference`
    /// (no method, no leading `/`), so `hits?route=graphql%20GetWeather%20on%20/graphql` finds it.
    package func signature(path: String) -> String {
        let variables = self.variables.map { " \(variablesMatch == .subset ? "with " : "")\($0.serialized)" } ?? ""
        return "graphql \(shownOperation)\(variables) on \(path)"
    }

    /// False when `request` is plainly another operation (its name differs): the cheap test matching
    /// makes of every operation's route on a path before `failure` is asked for a sentence.
    package func mayAccept(_ request: GraphQLRequest) -> Bool {
        guard let want = operationName else { return true }
        return request.effectiveOperationName == want
    }

    /// Why `request` is not this route's operation, as the miss explains it; nil when it is.
    package func failure(_ request: GraphQLRequest) -> String? {
        if let why = request.unreadable { return "not a GraphQL request: \(why)" }
        if let want = operationName {
            switch request.effectiveOperationName {
            case want?: break
            case let got?: return "GraphQL operation is \(got), the route answers \(want)"
            case nil: return "the GraphQL request names no operation (operationName, or a query's only operation), the route answers \(want)"
            }
        }
        if let want = document {
            switch request.document {
            case nil:
                return "the GraphQL request sends only a persisted query's hash, which no route's query and no earlier request of this session has"
            case .failure(let error)?:
                return "the GraphQL request's query does not parse: \(error)"
            case .success(let got)?:
                if got.shape != want.shape {
                    return "the GraphQL query differs from the route's: \(Self.clipped(got.shape)) here, \(Self.clipped(want.shape)) in the route"
                }
            }
        }
        if let want = variables {
            switch variablesMatch {
            case .equal where request.variables != want:
                return "GraphQL variables are \(request.variables.serialized), the route takes \(want.serialized)"
            case .subset where !request.variables.contains(want):
                return "GraphQL variables \(request.variables.serialized) do not include \(want.serialized)"
            default: break
            }
        }
        return nil
    }

    private static func clipped(_ shape: String) -> String {
        shape.count <= 160 ? "'\(shape)'" : "'\(shape.prefix(157))…'"
    }
}

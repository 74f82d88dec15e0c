/// One path's routes by the GraphQL operation they answer, each list best first: a request for
/// `GetWeather` is tried against GetWeather's routes and the path's routes that name no operation,
/// not against the thousand other operations' (`LiteralShortcut` keeps one per such path).
struct GraphQLOperationIndex: Sendable {
    private let all: [Route]
    private let byName: [String: [Route]]
    /// The routes that name no operation (a query's shape alone, a catch-all without `graphql:`).
    private let unnamed: [Route]

    /// Nil when no route of `routes` (best first) names an operation.
    init?(routes: [Route]) {
        let names = Set(routes.compactMap(\.graphQLOperation))
        guard !names.isEmpty else { return nil }
        all = routes
        unnamed = routes.filter { $0.graphQLOperation == nil }
        var byName: [String: [Route]] = [:]
        for name in names { byName[name] = routes.filter { $0.graphQLOperation == nil || $0.graphQLOperation == name } }
        self.byName = byName
    }

    /// The routes that may answer `request`: all of them when it was not read as GraphQL (a caller
    /// that matches a bare request, as the recorder's check does).
    func routes(for request: GraphQLRequest?) -> [Route] {
        guard let request else { return all }
        guard let name = request.effectiveOperationName else { return unnamed }
        return byName[name] ?? unnamed
    }
}

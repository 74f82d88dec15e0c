/// Where a catalog's GraphQL routes listen, worked out once at load: the engine reads a request's
/// GraphQL (its body, once) only when its path is one of these, so a catalog without GraphQL
/// routes pays one nil check per request and a request elsewhere one set lookup.
package struct GraphQLEndpoints: Sendable {
    private let literalPaths: Set<String>
    private let patterns: [PathPattern]
    /// SHA-256 of each route's query as written → the query: an Apollo client built from the same
    /// text sends this hash alone first (automatic persisted queries), and is answered at once.
    package let persistedQueries: [String: String]

    /// Nil when no route has `graphql:`.
    package init?(routes: [Route]) {
        var literalPaths = Set<String>()
        var patterns: [PathPattern] = []
        var persisted: [String: String] = [:]
        for route in routes {
            guard let match = route.conditions.graphQL else { continue }
            if route.pattern.isLiteral { literalPaths.insert(RequestHead.normalize(route.pattern.text)) } else { patterns.append(route.pattern) }
            if let text = match.queryText { persisted[SHA256.hex(text)] = text }
        }
        guard !literalPaths.isEmpty || !patterns.isEmpty else { return nil }
        self.literalPaths = literalPaths
        self.patterns = patterns
        self.persistedQueries = persisted
    }

    /// Whether a GraphQL route listens on the request's path.
    package func serves(_ request: RequestHead) -> Bool {
        if literalPaths.contains(request.normalizedPath) { return true }
        guard !patterns.isEmpty else { return false }
        let segments = request.segments
        return patterns.contains { $0.match(segments) != nil }
    }
}

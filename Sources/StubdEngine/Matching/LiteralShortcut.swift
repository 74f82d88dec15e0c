/// Matching's fast path: the all-literal routes by every full path they answer, best first,
/// leaving out the paths whose first segment a patterned route also lives under (the tree decides
/// those). A request is answered by one hash lookup of its path, without splitting it or walking
/// the tree. `RouteMatcherShortcutTests` drives it and the tree with the same random requests.
package struct LiteralShortcut: Sendable {
    private let byPath: [String: [Route]]
    /// Paths where GraphQL routes name their operations (`/graphql`): the same routes by operation.
    private let operations: [String: GraphQLOperationIndex]

    /// Nil when some route starts with a parameter or `**`: it may answer any first segment, so no
    /// path could be settled without the tree.
    init?(routes: [Route]) {
        var byPath: [String: [Route]] = [:]
        var patternedFirst = Set<Substring>()
        for route in routes {
            let segments = route.pattern.segments
            guard route.pattern.isLiteral else {
                guard segments.count > 1, case .literal(let first) = segments[0] else { return nil }
                patternedFirst.insert(Substring(first))
                continue
            }
            let path = "/" + segments.map { if case .literal(let text) = $0 { text } else { "" } }.joined(separator: "/")
            byPath[path, default: []].append(route)
            if let ext = route.pattern.optionalExtension, !segments.isEmpty { byPath[path + ext, default: []].append(route) }
        }
        // Settled here once rather than per request: a request's path is its key, so its first
        // segment is the key's.
        self.byPath = byPath.filter { path, _ in !patternedFirst.contains(LiteralShortcut.firstSegment(of: path)) }
            .mapValues { $0.sorted { $0.outranks($1) } }
        operations = self.byPath.compactMapValues { GraphQLOperationIndex(routes: $0) }
    }

    /// `/a/b.json` → `a`, without splitting the rest.
    private static func firstSegment(of path: String) -> Substring {
        let trimmed = path.utf8.dropFirst()
        let end = trimmed.firstIndex(of: UInt8(ascii: "/")) ?? trimmed.endIndex
        return Substring(path[trimmed.startIndex..<end])
    }

    /// The route that answers the request when the shortcut can tell; nil means the tree decides
    /// (no literal route here, a pattern might answer, or none of them accepts the request).
    func match(_ request: RequestHead, excluding excluded: Set<Int>) -> MatchResult? {
        guard let all = byPath[request.normalizedPath] else { return nil }
        // One nil check for a catalog without operations' routes (the dictionary is empty).
        let routes = operations.isEmpty ? all : operations[request.normalizedPath]?.routes(for: request.graphQL) ?? all
        for route in routes where route.method.accepts(request.method)
            && RouteMatcher.conditionsHold(route.conditions, request) && (excluded.isEmpty || !excluded.contains(route.index)) {
            return .matched(route, parameters: [:])
        }
        return nil
    }
}

/// Matching's fast path: the all-literal routes by every full path they answer, best first, and
/// the first segments under which a patterned route lives. A request whose first segment has no
/// patterned route is answered by one hash lookup of its path, without splitting it or walking
/// the tree. `RouteMatcherShortcutTests` drives it and the tree with the same random requests.
struct LiteralShortcut: Sendable {
    private let byPath: [String: [Route]]
    private let patternedFirst: Set<Substring>

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
        self.byPath = byPath.mapValues { $0.sorted { $0.outranks($1) } }
        self.patternedFirst = patternedFirst
    }

    /// The route that answers the request when the shortcut can tell; nil means the tree decides
    /// (no literal route here, a pattern might answer, or none of them accepts the request).
    func match(_ request: RequestHead, isAvailable: (Route) -> Bool) -> MatchResult? {
        guard let routes = byPath[request.normalizedPath],
              patternedFirst.isEmpty || !patternedFirst.contains(request.firstSegment) else { return nil }
        for route in routes where route.method.accepts(request.method)
            && RouteMatcher.conditionsHold(route.conditions, request) && isAvailable(route) {
            return .matched(route, parameters: [:])
        }
        return nil
    }
}

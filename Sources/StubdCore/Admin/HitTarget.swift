import Foundation

/// What a hit count asks about (`/__stubd/hits?route=…`, `hits/wait`, `XCTAssertHits`), checked
/// against the session's routes first: a name that names nothing would otherwise count 0 forever,
/// and `XCTAssertHits(stubd, "brokn", 0)` would pass.
///
/// A target names a route when it is a route's name or signature; a pattern (`GET /api/{key}/**`)
/// when it covers some route's path; a concrete path (`GET /api/KEY/…`, or `/…` for any method)
/// when some route's path matches it.
struct HitTarget {
    let text: String

    /// Nil when the target names something in `routes`; otherwise the nearest names, best first.
    func nearestIfUnknown(in routes: [Route]) -> [String]? {
        if routes.contains(where: { $0.key == text || $0.name == text || $0.signature == text }) { return nil }
        let parts = text.split(separator: " ", maxSplits: 1)
        let (method, path) = parts.count == 2 ? (String(parts[0]).uppercased(), String(parts[1])) : ("ANY", text)
        if path.hasPrefix("/") {
            let wanted: MethodMatch = method == "ANY" ? .any : .only(method)
            if path.contains("{") || path.contains("**") {
                if let pattern = try? PathPattern(parsing: path),
                   routes.contains(where: { HitTarget.methodsOverlap(wanted, $0.method) && pattern.match(HitTarget.example(of: $0.pattern)) != nil }) {
                    return nil
                }
            } else {
                let request = RequestHead(method: method == "ANY" ? "GET" : method, path: path)
                let segments = request.segments
                if routes.contains(where: { HitTarget.methodsOverlap(wanted, $0.method) && $0.pattern.match(segments) != nil }) {
                    return nil
                }
            }
        }
        return nearest(in: routes)
    }

    /// The three names or signatures nearest to the target, by edit distance.
    private func nearest(in routes: [Route]) -> [String] {
        var distances: [String: Int] = [:]
        let lowered = text.lowercased()
        for route in routes {
            for candidate in [route.name, route.signature].compactMap({ $0 }) where distances[candidate] == nil {
                distances[candidate] = editDistance(lowered, candidate.lowercased())
            }
        }
        let ranked = distances.sorted { a, b in a.value < b.value || (a.value == b.value && a.key < b.key) }
        return ranked.prefix(3).map(\.key)
    }

    /// A concrete path the pattern matches: each `{param}` as `x`, a trailing `**` as nothing, and
    /// a convention file's extension kept (`/a/{b}.json` is how a test names `Stubs/a/{b}.json`).
    static func example(of pattern: PathPattern) -> [Substring] {
        var segments = pattern.segments.compactMap { segment -> String? in
            switch segment {
            case .literal(let s): return s
            case let .parameter(_, prefix, suffix): return prefix + "x" + suffix
            case .wildcard: return nil
            }
        }
        if let ext = pattern.optionalExtension, !segments.isEmpty { segments[segments.count - 1] += ext }
        return segments.map { Substring($0) }
    }

    static func methodsOverlap(_ a: MethodMatch, _ b: MethodMatch) -> Bool {
        switch (a, b) {
        case (.any, _), (_, .any): return true
        case let (.only(x), .only(y)): return x == y || (x == "HEAD" && y == "GET")
        }
    }
}

extension StubEngine {
    /// The 404 for a hit target that names nothing in `session` (its catalog and runtime stubs); nil when it names something.
    func unknownHitTarget(_ target: String, in session: SessionState) -> GeneratedResponse? {
        let routes = catalog.routes + session.runtimeStubs().map(\.route)
        guard let nearest = HitTarget(text: target).nearestIfUnknown(in: routes) else { return nil }
        let hint = nearest.isEmpty ? "the catalog has no routes" : "nearest: " + nearest.map { "'\($0)'" }.joined(separator: ", ")
        return .problem(404, title: "No such route",
                        detail: "'\(target)' names no route in this session's catalog (a route name, a signature such as "
                            + "'GET /api/{key}/**', or a concrete path one route matches); \(hint)",
                        extra: ["nearest": .array(nearest.map { .string($0) })])
    }
}

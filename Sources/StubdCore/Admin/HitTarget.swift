import Foundation
import StubdProtocol
import StubdEngine

/// What a hit count asks about (`/__stubd/hits?route=…`, `hits/wait`, `XCTAssertHits`), checked
/// against the session's routes first: a name that names nothing would otherwise count 0 forever,
/// and `XCTAssertHits(stubd, "brokn", 0)` would pass.
///
/// A target names a route when it is a route's name or signature; a pattern (`GET /api/{key}/**`)
/// when it covers some route's path; a concrete path (`GET /api/KEY/…`, or `/…` for any method)
/// when some route's path matches it.
struct HitTarget {
    let query: RouteQuery
    var text: String { query.text }

    /// Nil when the target names something in `routes`; otherwise the nearest names, best first.
    func nearestIfUnknown(in routes: [Route]) -> [String]? {
        if routes.contains(where: { $0.key == text || $0.name == text || $0.signature == text }) { return nil }
        switch query.target {
        case .name:
            break
        case let .pattern(method, pattern):
            // Covering a route is what a quota's pattern does too: one test of it, on a sample path.
            let selector = RouteSelector(text: text, method: method, pattern: pattern, routeName: nil)
            if routes.contains(where: selector.covers) { return nil }
        case let .concrete(method, path):
            let segments = PathPattern.split(path)
            let accepts: (Route) -> Bool = { route in
                if case .only(let name) = method { return route.method.accepts(name) }
                return true
            }
            if routes.contains(where: { accepts($0) && $0.pattern.match(segments) != nil }) { return nil }
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
}

import Foundation

/// Why a route did not answer a request, for 404 bodies, the journal and assertion messages.
public struct NearMiss: Sendable, CustomStringConvertible {
    public let route: Route
    public let reason: String
    /// Lower is nearer.
    let distance: Int

    public var description: String { "\(route.signature) — \(reason)" }
}

/// The outcome of matching one request against a set of routes.
public enum MatchResult: Sendable {
    case matched(Route, parameters: [String: String])
    /// The path exists, but not for this method.
    case wrongMethod(allowed: [String], misses: [NearMiss])
    case notFound(misses: [NearMiss])
}

/// Finds the route that answers a request: literal paths by hash lookup, patterns by a scan of
/// the (usually few) routes with parameters, then ordered by priority and specificity.
struct RouteMatcher: Sendable {
    /// All-literal routes by every path they answer (`/a/b` and `/a/b.json`), best first.
    private let literal: [String: [Route]]
    /// Routes with `{param}` or `**` segments, by their first segment when it is literal
    /// (so a request only tries the patterns that can match its first segment)...
    private let patternedByFirst: [Substring: [Route]]
    /// ...and those whose first segment is not literal.
    private let patternedAnyFirst: [Route]
    let all: [Route]

    init(routes: [Route]) {
        all = routes
        var literal: [String: [Route]] = [:]
        var patterned: [Route] = []
        for route in routes {
            let isLiteral = route.pattern.segments.allSatisfy { if case .literal = $0 { true } else { false } }
            guard isLiteral else { patterned.append(route); continue }
            let base = route.pattern.segments.isEmpty ? "/" : "/" + route.pattern.segments.map {
                if case .literal(let s) = $0 { s } else { "" }
            }.joined(separator: "/")
            literal[base, default: []].append(route)
            if let ext = route.pattern.optionalExtension { literal[base + ext, default: []].append(route) }
        }
        self.literal = literal.mapValues { $0.sorted { $0.outranks($1) } }
        var byFirst: [Substring: [Route]] = [:]
        var anyFirst: [Route] = []
        for route in patterned.sorted(by: { $0.outranks($1) }) {
            if case .literal(let first)? = route.pattern.segments.first, route.pattern.segments.count > 1 {
                byFirst[Substring(first), default: []].append(route)
            } else {
                anyFirst.append(route)
            }
        }
        patternedByFirst = byFirst
        patternedAnyFirst = anyFirst
    }

    var isEmpty: Bool { all.isEmpty }

    /// Every route whose method and path fit, best first, each with its parameters.
    func candidates(for request: RequestHead) -> [(route: Route, parameters: [String: String])] {
        let exact = literal[request.normalizedPath] ?? []
        let sameFirst = patternedByFirst.isEmpty ? nil : patternedByFirst[request.firstSegment]
        if sameFirst == nil, patternedAnyFirst.isEmpty { return exact.map { ($0, [:]) } }
        let segments = request.segments
        var found = exact.map { (route: $0, parameters: [String: String]()) }
        for route in (sameFirst ?? []) + patternedAnyFirst {
            if let params = route.pattern.match(segments) { found.append((route, params)) }
        }
        if found.count > 1 { found.sort { $0.route.outranks($1.route) } }
        return found
    }

    /// The best route that accepts the request, skipping those `isAvailable` turns down (used-up `times`).
    func match(_ request: RequestHead, isAvailable: (Route) -> Bool = { _ in true }) -> MatchResult {
        // The common case, a literal path with no pattern that could also match: no array built.
        if let exact = literal[request.normalizedPath], patternedAnyFirst.isEmpty,
           patternedByFirst.isEmpty || patternedByFirst[request.firstSegment] == nil {
            for route in exact where route.method.accepts(request.method)
                && RouteMatcher.conditionsHold(route.conditions, request) && isAvailable(route) {
                return .matched(route, parameters: [:])
            }
        }
        let found = candidates(for: request)
        for (route, params) in found where route.method.accepts(request.method)
            && RouteMatcher.conditionsHold(route.conditions, request) && isAvailable(route) {
            return .matched(route, parameters: params)
        }
        if !found.isEmpty, !found.contains(where: { $0.route.method.accepts(request.method) }) {
            var allowed = Set<String>()
            for (route, _) in found { allowed.formUnion(route.method.allowed) }
            allowed.insert("OPTIONS")
            return .wrongMethod(allowed: allowed.sorted(), misses: found.map { NearMiss(route: $0.route, reason: RouteMatcher.explain($0.route, request), distance: 1) })
        }
        return .notFound(misses: nearest(to: request, among: found.map(\.route)))
    }

    static func conditionsHold(_ conditions: RequestConditions, _ request: RequestHead) -> Bool {
        if conditions.isEmpty { return true }
        return failedCondition(conditions, request) == nil
    }

    /// The first condition the request fails, as a sentence; nil when all hold.
    static func failedCondition(_ conditions: RequestConditions, _ request: RequestHead) -> String? {
        for (name, expected) in conditions.query {
            switch (expected, request.queryValue(name)) {
            case (_, nil): return "query parameter \(name) is missing"
            case (.present, _?): continue
            case (.equals(let want), let got?):
                if got != want { return "query \(name) is \(got.map { "'\($0)'" } ?? "empty"), expected '\(want)'" }
            }
        }
        for (name, expected) in conditions.headers {
            switch (expected, request.header(name)) {
            case (_, nil): return "header \(name) is missing"
            case (.present, _?): continue
            case (.equals(let want), let got?):
                if got != want { return "header \(name) is '\(got)', expected '\(want)'" }
            }
        }
        switch conditions.body {
        case nil: break
        case .contains(let text)?:
            if !String(decoding: request.body, as: UTF8.self).contains(text) { return "body does not contain '\(text)'" }
        case .json(let want)?:
            guard let got = try? JSONParser.parse(request.body) else { return "body is not JSON; expected \(want.serialized)" }
            if got != want { return "body JSON \(got.serialized) is not \(want.serialized)" }
        }
        return nil
    }

    /// Why `route` does not answer `request`, in the words an assertion message would use.
    static func explain(_ route: Route, _ request: RequestHead) -> String {
        let want = route.pattern.segments
        let got = request.segments
        if route.pattern.match(got) == nil {
            for i in 0..<max(want.count, got.count) {
                if i < want.count, case .wildcard = want[i] { break }
                guard i < want.count else { return "path has \(got.count - want.count) more segment(s) than the route" }
                guard i < got.count else { return "path has \(want.count - got.count) fewer segment(s) than the route" }
                let ok: Bool
                switch want[i] {
                case .literal(let s):
                    ok = got[i] == s || (i == want.count - 1 && route.pattern.optionalExtension.map { got[i] == s + $0 } == true)
                case .parameter: ok = want[i].capture(got[i]) != nil
                    || (i == want.count - 1 && route.pattern.optionalExtension.map { got[i].hasSuffix($0) && want[i].capture(got[i].dropLast($0.count)) != nil } == true)
                case .wildcard: ok = true
                }
                if !ok {
                    let expected: String
                    switch want[i] {
                    case .literal(let s): expected = "'\(s)'"
                    case let .parameter(name, prefix, suffix): expected = "'\(prefix){\(name)}\(suffix)'"
                    case .wildcard: expected = "**"
                    }
                    return "path segment \(i + 1) differs: '\(got[i])' here, \(expected) in the route"
                }
            }
            return "path differs"
        }
        if !route.method.accepts(request.method) { return "method is \(request.method), the route takes \(route.method)" }
        return failedCondition(route.conditions, request) ?? "used up (times: \(route.times ?? 0))"
    }

    /// The three routes nearest to a request that none answers.
    func nearest(to request: RequestHead, among pathMatches: [Route]) -> [NearMiss] {
        let got = request.segments
        var scored: [NearMiss] = []
        let pool = all.count > 20_000 ? Array(all.prefix(20_000)) : all
        for route in pool {
            var distance = 0
            let want = route.pattern.segments
            for i in 0..<max(want.count, got.count) {
                if i < want.count, case .wildcard = want[i] { break }
                guard i < want.count, i < got.count else { distance += 2; continue }
                switch want[i] {
                case .literal(let s):
                    if got[i] != s { distance += got[i].lowercased() == s.lowercased() ? 1 : min(4, 1 + editDistance(String(got[i]), s) / 2) }
                case .parameter: if want[i].capture(got[i]) == nil { distance += 1 }
                case .wildcard: break
                }
            }
            if !route.method.accepts(request.method) { distance += 1 }
            if distance > max(6, got.count * 2) { continue }
            scored.append(NearMiss(route: route, reason: RouteMatcher.explain(route, request), distance: distance))
        }
        return Array(scored.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.route.order < $1.route.order) }.prefix(3))
    }
}

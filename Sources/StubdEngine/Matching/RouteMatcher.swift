import Foundation
import HTTPTypes

/// Finds the route that answers a request by walking a tree of path segments: literal children by
/// hash, one child per `{param}` shape (affixes included, the name not: `{id}` and `{name}` take the
/// same segments and share a branch; `{y}.{format}` is one shape too), and the routes that end in
/// `**` at each node. A request visits as many nodes as its path has segments (times the few
/// parameter branches at each), whatever the number of routes; the routes it reaches are then
/// ordered by `Route.outranks` (priority, specificity, method, conditions, declaration order).
///
/// Values, not objects: a catalog builds one and never changes it; a session's runtime stubs keep
/// theirs behind the session's lock and insert or remove one route at a time.
package struct RouteMatcher: Sendable {
    private var nodes: [Node] = [Node()]
    /// Routes in the tree (a convention route reached with and without its extension counts once).
    private(set) var count = 0
    /// Set by `seal()`: the fast path for literal paths (see `LiteralShortcut`).
    private var literalShortcut: LiteralShortcut?

    private struct Node: Sendable {
        var literal: [Substring: Int] = [:]
        var parameters: [(segment: PatternSegment, child: Int)] = []
        /// Routes whose pattern ends here.
        var terminal: [Route] = []
        /// Routes whose pattern ends here with `/**`: they take this path and everything below it.
        var wildcard: [Route] = []
        /// `literal`'s keys in order, and in the order of their reversed text, for nodes with many:
        /// the nearest-miss search looks at the neighbours of a mistyped segment in both (a typo near
        /// the end of a name, or near its start) instead of at every sibling. Nil until `seal()`.
        var sortedLiterals: [Substring]?
        var sortedReversed: [(reversed: String, key: Substring)]?
    }

    init() {}

    init(routes: [Route]) {
        for route in routes { insert(route) }
        seal()
    }

    // MARK: Building

    mutating func insert(_ route: Route) {
        count += 1
        literalShortcut = nil
        for path in Self.paths(of: route.pattern) {
            var node = 0
            for segment in path {
                node = child(of: node, for: segment)
            }
            if route.pattern.segments.last == .wildcard {
                nodes[node].wildcard.append(route)
            } else {
                nodes[node].terminal.append(route)
            }
        }
    }

    /// Removes a route inserted before (by identity). Emptied nodes stay: a session that removes
    /// runtime stubs usually adds others at the same places.
    mutating func remove(_ route: Route) {
        literalShortcut = nil
        var removed = false
        for path in Self.paths(of: route.pattern) {
            var node = 0
            var found = true
            for segment in path {
                guard let next = existingChild(of: node, for: segment) else { found = false; break }
                node = next
            }
            guard found else { continue }
            let before = nodes[node].terminal.count + nodes[node].wildcard.count
            nodes[node].terminal.removeAll { $0 === route }
            nodes[node].wildcard.removeAll { $0 === route }
            if nodes[node].terminal.count + nodes[node].wildcard.count < before { removed = true }
        }
        if removed { count -= 1 }
    }

    /// Sorts the literal keys of crowded nodes, for `nearest`, and builds the literal shortcut.
    /// Called once a catalog's tree is built; an insert or remove afterwards drops the shortcut.
    mutating func seal() {
        for i in nodes.indices where nodes[i].literal.count > 16 {
            nodes[i].sortedLiterals = nodes[i].literal.keys.sorted()
            nodes[i].sortedReversed = nodes[i].literal.keys.map { (String($0.reversed()), $0) }.sorted { $0.reversed < $1.reversed }
        }
        var seen = Set<ObjectIdentifier>()
        var routes: [Route] = []
        for node in nodes {
            for route in node.terminal + node.wildcard where seen.insert(ObjectIdentifier(route)).inserted { routes.append(route) }
        }
        literalShortcut = LiteralShortcut(routes: routes)
    }

    /// The segment paths a route is filed under, without its trailing `**`: a convention route's
    /// last literal segment with and without its optional extension (`City.json` and `City`).
    private static func paths(of pattern: PathPattern) -> [[PatternSegment]] {
        var path = pattern.segments
        if path.last == .wildcard { path.removeLast() }
        guard let ext = pattern.optionalExtension, case .literal(let last)? = path.last else { return [path] }
        return [path, path.dropLast() + [.literal(last + ext)]]
    }

    private mutating func child(of node: Int, for segment: PatternSegment) -> Int {
        if let existing = existingChild(of: node, for: segment) { return existing }
        let fresh = nodes.count
        nodes.append(Node())
        switch segment {
        case .literal(let text):
            nodes[node].literal[Substring(text)] = fresh
            nodes[node].sortedLiterals = nil
            nodes[node].sortedReversed = nil
        case .parameter, .compound:
            nodes[node].parameters.append((segment.shape, fresh))
        case .wildcard:
            preconditionFailure("'**' ends a pattern; it is not a tree node")
        }
        return fresh
    }

    private func existingChild(of node: Int, for segment: PatternSegment) -> Int? {
        switch segment {
        case .literal(let text): return nodes[node].literal[Substring(text)]
        case .parameter, .compound: return nodes[node].parameters.first { $0.segment == segment.shape }?.child
        case .wildcard: return nil
        }
    }

    // MARK: Matching

    /// Every route whose path fits, best first, each with its parameters.
    func candidates(for request: RequestHead) -> [(route: Route, parameters: [String: String])] {
        let segments = request.segments
        var found: [(route: Route, parameters: [String: String])] = []
        collect(from: 0, depth: 0, segments, graphQL: request.graphQL, into: &found)
        if found.count > 1 { found.sort { $0.route.outranks($1.route) } }
        return found
    }

    private func collect(from node: Int, depth: Int, _ segments: [Substring], graphQL: GraphQLRequest?,
                         into found: inout [(route: Route, parameters: [String: String])]) {
        let here = nodes[node]
        for route in here.wildcard {
            if let params = route.pattern.match(segments) { found.append((route, params)) }
        }
        if depth == segments.count {
            let operation = graphQL?.effectiveOperationName
            for route in here.terminal {
                // Another GraphQL operation's route: passed over before it is sorted with the rest.
                if let wanted = route.graphQLOperation, graphQL != nil, wanted != operation { continue }
                if route.pattern.isLiteral {
                    found.append((route, [:]))
                } else if let params = route.pattern.match(segments) {
                    found.append((route, params))
                }
            }
            return
        }
        let segment = segments[depth]
        if let next = here.literal[segment] { collect(from: next, depth: depth + 1, segments, graphQL: graphQL, into: &found) }
        let isLast = depth == segments.count - 1
        for (parameter, next) in here.parameters where isLast || parameter.accepts(segment) {
            // The last segment may carry a convention route's optional extension, which the
            // capture alone cannot judge: the route's own match decides.
            collect(from: next, depth: depth + 1, segments, graphQL: graphQL, into: &found)
        }
    }

    /// The best route that accepts the request, skipping the routes whose `index` is in `excluded` (those the
    /// session found used up: `times` spent, a scenario in another state). The matcher asks nothing
    /// back: the engine matches, asks the session, and matches again without a used-up route
    /// (`StubEngine.matchAsWritten`). `takingShortcut: false` walks the tree for every request (the
    /// shortcut's test).
    func match(_ request: RequestHead, excluding excluded: Set<Int> = [], takingShortcut: Bool = true) -> MatchResult {
        // The common case, a literal path no pattern could also answer: no split, no array built.
        if takingShortcut, let shortcut = literalShortcut, let matched = shortcut.match(request, excluding: excluded) {
            return matched
        }
        let found = candidates(for: request)
        for (route, params) in found where route.method.accepts(request.method)
            && RouteMatcher.conditionsHold(route.conditions, request) && (excluded.isEmpty || !excluded.contains(route.index)) {
            return .matched(route, parameters: params)
        }
        if !found.isEmpty, !found.contains(where: { $0.route.method.accepts(request.method) }) {
            var allowed = Set<String>()
            for (route, _) in found { allowed.formUnion(route.method.allowed.map(\.rawValue)) }
            allowed.insert("OPTIONS")
            return .wrongMethod(allowed: allowed.sorted(), misses: found.map {
                NearMiss(route: $0.route, reason: RouteMatcher.explain($0.route, request), distance: 1)
            })
        }
        return .notFound(misses: nearest(to: request))
    }

    /// Whether the shortcut alone settles this request (for the test that compares it with the tree).
    func literalShortcutAnswers(_ request: RequestHead) -> Bool {
        literalShortcut?.match(request, excluding: []) != nil
    }

    static func conditionsHold(_ conditions: RequestConditions, _ request: RequestHead) -> Bool {
        if conditions.isEmpty { return true }
        // Another operation's route, turned down without writing why: a thousand operations share
        // one path, and the sentence cost ~0.7 µs each (354 µs a request with 1,000, debug build).
        if let graphQL = conditions.graphQL, let read = request.graphQL, !graphQL.mayAccept(read) { return false }
        return failedCondition(conditions, request) == nil
    }

    /// The first condition the request fails, as a sentence; nil when all hold.
    static func failedCondition(_ conditions: RequestConditions, _ request: RequestHead) -> String? {
        for condition in conditions.query {
            let (name, expected) = (condition.name, condition.value)
            switch (expected, request.queryValue(name, ignoringCase: conditions.queryNamesIgnoreCase)) {
            case (_, nil):
                if conditions.queryNamesIgnoreCase { return "query parameter \(name) is missing (in any case)" }
                // `APPID` sent where the route says `appid` is the usual cause, and has a one-line fix.
                if let sent = request.query.first(where: { $0.name.lowercased() == name.lowercased() }) {
                    return "query parameter \(name) is missing (a parameter \(sent.name) was sent; set queryNames: any-case)"
                }
                return "query parameter \(name) is missing"
            case (.present, _?): continue
            case (_, let got?):
                if !expected.accepts(got ?? "") { return "query \(name) is \(got.map { "'\($0)'" } ?? "empty"), expected \(expected)" }
            }
        }
        for condition in conditions.headers {
            let (name, expected) = (condition.name, condition.value)
            switch (expected, request.header(name)) {
            case (_, nil): return "header \(name) is missing"
            case (.present, _?): continue
            case (_, let got?):
                if !expected.accepts(got) { return "header \(name) is '\(got)', expected \(expected)" }
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
        if let graphQL = conditions.graphQL {
            // Read by the engine once per request where a GraphQL route listens; here only for a
            // runtime stub's path the catalog does not know.
            if let why = graphQL.failure(request.graphQL ?? GraphQLRequest.read(request)) { return why }
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
                case .parameter, .compound: ok = want[i].accepts(got[i])
                    || (i == want.count - 1 && route.pattern.optionalExtension.map { got[i].hasSuffix($0) && want[i].accepts(got[i].dropLast($0.count)) } == true)
                case .wildcard: ok = true
                }
                if !ok {
                    let expected = want[i] == .wildcard ? "**" : "'\(want[i].written)'"
                    return "path segment \(i + 1) differs: '\(got[i])' here, \(expected) in the route"
                }
            }
            return "path differs"
        }
        if !route.method.accepts(request.method) { return "method is \(request.method), the route takes \(route.method)" }
        if let failed = failedCondition(route.conditions, request) { return failed }
        // Not the route's own doing: the session's scenario is in another state, or its uses ran out.
        if let step = route.scenario, let source = step.key, source.value(in: request, pattern: route.pattern) == nil {
            return "keeps scenario \(step.name)'s state per \(source), which this request does not carry"
        }
        if let step = route.scenario, let when = step.whenState {
            let whose = step.key.flatMap { $0.value(in: request, pattern: route.pattern) }.map { " for key '\($0)'" } ?? ""
            return "answers only in scenario \(step.name)'s state '\(when)'\(whose)"
        }
        return "used up (times: \(route.times ?? 0))"
    }

    // MARK: Nearest misses

    /// The three routes nearest to a request that none answers. The tree is walked as far as the
    /// request's path goes; the routes there, under the siblings nearest to the segment that
    /// differs, and under the parameter branches are scored. The work is bounded (a few hundred
    /// routes at most) whatever the catalog's size.
    func nearest(to request: RequestHead) -> [NearMiss] {
        let got = request.segments
        var pool: [Route] = []
        var seen = Set<ObjectIdentifier>()
        func take(_ route: Route) {
            if seen.insert(ObjectIdentifier(route)).inserted { pool.append(route) }
        }
        for (node, depth) in deepestReach(of: got) {
            let here = nodes[node]
            here.terminal.forEach(take)
            here.wildcard.forEach(take)
            var branches: [Int] = []
            if depth < got.count {
                branches += neighbours(of: got[depth], among: here).compactMap { here.literal[$0] }
                branches += here.parameters.prefix(8).map(\.child)
            } else {
                branches += here.literal.values.prefix(8)
                branches += here.parameters.prefix(8).map(\.child)
            }
            for branch in branches { routes(under: branch, limit: 8).forEach(take) }
        }

        var scored: [(miss: NearMiss, edits: Int)] = []
        for route in pool {
            // `distance` counts differing segments, roughly weighted; `edits` (letters changed) breaks its ties.
            var distance = 0, edits = 0
            let want = route.pattern.segments
            for i in 0..<max(want.count, got.count) {
                if i < want.count, case .wildcard = want[i] { break }
                guard i < want.count, i < got.count else { distance += 2; continue }
                switch want[i] {
                case .literal(let s):
                    guard got[i] != s else { continue }
                    if got[i].lowercased() == s.lowercased() { distance += 1; continue }
                    var changed = editDistance(String(got[i]), s)
                    if let ext = route.pattern.optionalExtension, i == want.count - 1 {
                        changed = min(changed, editDistance(String(got[i]), s + ext))
                    }
                    distance += min(4, 1 + changed / 2)
                    edits += changed
                case .parameter, .compound: if !want[i].accepts(got[i]) { distance += 1 }
                case .wildcard: break
                }
            }
            if !route.method.accepts(request.method) { distance += 1 }
            // Every operation's route shares one path: another operation's is farther than this one's.
            if let operation = route.conditions.graphQL?.operationName, operation != request.graphQL?.effectiveOperationName { distance += 1 }
            if distance > max(6, got.count * 2) { continue }
            scored.append((NearMiss(route: route, reason: RouteMatcher.explain(route, request), distance: distance), edits))
        }
        scored.sort { a, b in (a.miss.distance, a.edits, a.miss.route.index) < (b.miss.distance, b.edits, b.miss.route.index) }
        return scored.prefix(3).map(\.miss)
    }

    /// The nodes where a walk along `segments` stops (path used up, or no child takes the next
    /// segment), deepest first: at most four, from at most 64 visited.
    private func deepestReach(of segments: [Substring]) -> [(node: Int, depth: Int)] {
        var stops: [(node: Int, depth: Int)] = []
        var frontier = [(node: 0, depth: 0)]
        var visited = 0
        while let (node, depth) = frontier.popLast(), visited < 64 {
            visited += 1
            guard depth < segments.count else { stops.append((node, depth)); continue }
            let here = nodes[node]
            var advanced = false
            if let next = here.literal[segments[depth]] { frontier.append((next, depth + 1)); advanced = true }
            for (parameter, next) in here.parameters where parameter.accepts(segments[depth]) {
                frontier.append((next, depth + 1))
                advanced = true
            }
            if !advanced { stops.append((node, depth)) }
        }
        return Array(stops.sorted { $0.depth > $1.depth }.prefix(4))
    }

    /// The literal children whose text is nearest to `segment`: its neighbours in sorted order and
    /// in reversed-text order (so a typo near either end of a name lands beside the name), or the
    /// first few children of a small node.
    private func neighbours(of segment: Substring, among node: Node) -> [Substring] {
        guard let sorted = node.sortedLiterals, let reversed = node.sortedReversed else { return Array(node.literal.keys.prefix(16)) }
        func insertionPoint(count: Int, isBefore: (Int) -> Bool) -> Int {
            var low = 0, high = count
            while low < high {
                let mid = (low + high) / 2
                if isBefore(mid) { low = mid + 1 } else { high = mid }
            }
            return low
        }
        let forward = insertionPoint(count: sorted.count) { sorted[$0] < segment }
        let backwardText = String(segment.reversed())
        let backward = insertionPoint(count: reversed.count) { reversed[$0].reversed < backwardText }
        return Array(sorted[max(0, forward - 6)..<min(sorted.count, forward + 6)])
            + reversed[max(0, backward - 6)..<min(reversed.count, backward + 6)].map(\.key)
    }

    /// Up to `limit` routes at or below `node`, nearest levels first.
    private func routes(under node: Int, limit: Int) -> [Route] {
        var found: [Route] = []
        var queue = [node]
        var next = 0
        while next < queue.count, found.count < limit {
            let here = nodes[queue[next]]
            next += 1
            found += here.terminal.prefix(limit - found.count)
            found += here.wildcard.prefix(max(0, limit - found.count))
            if queue.count < 4 * limit {
                queue += here.literal.values.prefix(limit)
                queue += here.parameters.prefix(limit).map(\.child)
            }
        }
        return found
    }
}

import StubdProtocol

/// What one session (or several, added up) counted that coverage reports: per route key, the hits,
/// how many times each answer was sent, and what each quota did. Sessions are tallied one by one and
/// then added, since which answer of a sequence went out depends on each session's own count.
package struct CoverageTally: Sendable, Equatable {
    package struct RouteTally: Sendable, Equatable {
        package var hits = 0
        /// Answer index → times sent. Empty for a route no longer in the catalog.
        package var answers: [Int] = []
        package var quotas: [String: QuotaTally] = [:]
        /// A WebSocket script's reply index → times a client message took it.
        package var replies: [Int: Int] = [:]
        /// The most events one event stream sent, and how many streams sent every event before their ending.
        package var furthestEvent = 0
        package var streamsEnded = 0
    }

    package struct QuotaTally: Sendable, Equatable {
        package var underLimit = 0
        package var exceeded = 0
        package var resetByClock = 0

        package init(underLimit: Int = 0, exceeded: Int = 0, resetByClock: Int = 0) {
            self.underLimit = underLimit
            self.exceeded = exceeded
            self.resetByClock = resetByClock
        }
    }

    private(set) var routes: [String: RouteTally] = [:]
    /// States entered and moves taken, by scenario (the session's, however its routes changed since).
    package private(set) var scenarios = ScenarioCounts()

    package init() {}

    /// A session's counts, with its routes' answers told apart by the shape of `catalog`'s routes.
    package init(_ session: SessionState, catalog: StubCatalog) {
        scenarios = session.scenarios.counts(settling: catalog.scenarioSteps, now: session.clock.now())
        let shapes = Dictionary(catalog.routes.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for (key, counter) in session.hitCounters() {
            let hits = counter.count
            guard hits > 0 else { continue }
            let outcomes = counter.outcomes.snapshot
            guard let route = shapes[key] else {
                routes[key] = RouteTally(hits: hits)
                continue
            }
            routes[key] = Self.tally(route, hits: hits, outcomes)
            if route.responses.contains(where: { $0.webSocket != nil || $0.events != nil }) {
                let traffic = session.streams.route(key)
                routes[key]!.replies = traffic.replies
                routes[key]!.furthestEvent = traffic.furthestEvent
                routes[key]!.streamsEnded = traffic.streamsEnded
            }
        }
    }

    /// Which answers `hits` requests were given, a sequence handing them out in order (the last one
    /// repeating, or all in turn with `cycle`), less the ones a quota refused after picking them.
    static func tally(_ route: Route, hits n: Int, _ outcomes: RouteOutcomes.Counts) -> RouteTally {
        let c = route.responses.count
        let picked = (0..<c).map { i -> Int in
            if route.cycle { return n > i ? (n - i - 1) / c + 1 : 0 }
            return i < c - 1 ? (n > i ? 1 : 0) : max(0, n - (c - 1))
        }
        var tally = RouteTally(hits: n, answers: picked.indices.map { max(0, picked[$0] - (outcomes.refusedAt[$0] ?? 0)) })
        // A `quotaStatus:` answer charges no quota.
        let chargeable = picked.indices.reduce(0) { $0 + (route.responses[$1].quotaStatus == nil ? picked[$1] : 0) }
        for quota in route.quotas {
            let q = outcomes.quotas[quota.name] ?? RouteOutcomes.QuotaCounts()
            tally.quotas[quota.name] = QuotaTally(underLimit: max(0, chargeable - q.uncharged - q.refused),
                                                  exceeded: q.refused, resetByClock: q.recovered)
        }
        return tally
    }

    /// Adds another tally's counts to these.
    package mutating func add(_ other: CoverageTally) {
        scenarios.add(other.scenarios)
        for (key, theirs) in other.routes {
            var mine = routes[key] ?? RouteTally()
            mine.hits += theirs.hits
            if mine.answers.count < theirs.answers.count {
                mine.answers += Array(repeating: 0, count: theirs.answers.count - mine.answers.count)
            }
            for (i, n) in theirs.answers.enumerated() { mine.answers[i] += n }
            for (i, n) in theirs.replies { mine.replies[i, default: 0] += n }
            mine.furthestEvent = max(mine.furthestEvent, theirs.furthestEvent)
            mine.streamsEnded += theirs.streamsEnded
            for (name, q) in theirs.quotas {
                var t = mine.quotas[name] ?? QuotaTally()
                t.underLimit += q.underLimit
                t.exceeded += q.exceeded
                t.resetByClock += q.resetByClock
                mine.quotas[name] = t
            }
            routes[key] = mine
        }
    }

    package subscript(key: String) -> RouteTally? { routes[key] }
}

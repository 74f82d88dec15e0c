import HTTPTypes
import StubdProtocol
package import Synchronization

/// Everything a test can observe or change about one session: hits, sequence positions, quotas,
/// the clock, the journal and runtime stubs. The default session (id "") is the one without a
/// prefix, and otherwise a session like any other. Routes are shared and immutable; everything a
/// session counts about them is here, found by route index (`state(for:generation:)`) or key.
package final class SessionState: Sendable {
    package let id: String
    package let clock: SessionClock
    package let journal: RequestJournal
    /// The session's open WebSockets and what its streams carried (kept as long as the journal keeps requests).
    package let streams: StreamTraffic
    /// What its streams carried, message by message, for their journal entries.
    package let streamJournal: StreamJournal
    package let waiters = HitWaiters()
    /// Long-polls (`/__stubd/hits/wait`) registered and not yet answered: a test waits for its poll
    /// to be pending before it sends the hits, instead of sleeping and hoping.
    package var pendingWaits: Int { waiters.pendingCount }
    /// When a request or admin call last named this session (uptime nanoseconds), for eviction.
    let lastUsed = Atomic<UInt64>(0)

    /// Route key → counter: a route that survives a reload (same name, or same method and pattern)
    /// keeps counting where it was.
    private let routeCounters = Locked<[String: HitCounter]>([:])
    /// Each route's counter, ledgers and cells, found by route index without building a key; one
    /// cache per worker thread (see `ThreadStripe`), emptied when a new catalog comes into force.
    private let routeStates = ThreadStriped { RouteStateCache() }
    /// "GET /concrete/path" → hits, one table per worker thread (see `ThreadStripe`); a count is the sum.
    private let pathCounts = ThreadStriped { PathCounts() }
    package let unmatched = Atomic<Int>(0)
    /// "GET /path" → requests passed on to the real API. One lock is enough: each took a round trip.
    private let forwardedCounts = Locked<[String: Int]>([:])
    /// Route key → answers served (sequence position and `times`).
    private let served = Locked<[String: Int]>([:])
    private let ledgers = Locked<[String: QuotaLedger]>([:])
    private let runtime = Locked<RuntimeStubs>(RuntimeStubs())
    private let runtimeCount = Atomic<Int>(0)
    /// `PUT /__stubd/prefer`: the `Prefer` header this session's requests are matched with when they
    /// send none. `hasPreferred` is read first, so a request of a session without one takes no lock.
    private let preferred = Locked<String?>(nil)
    private let hasPreferred = Atomic<Bool>(false)
    /// Resource name → this session's items of it, made from the seed on first use; a reset drops
    /// them, so the next use starts from the seed again.
    private let resourceStores = Locked<[String: ResourceStore]>([:])
    /// Scenario name → the state this session's requests have moved it to (`Started` until one does).
    package let scenarios: ScenarioStates
    /// This session's part of the whole server's storage budget: its journal bodies, what its streams
    /// carried and its scenario keys are charged to it.
    package let storage: SessionStorageAccount
    /// The GraphQL queries this session's clients registered by hash (automatic persisted queries).
    package let persistedQueries = PersistedQueries()

    /// This session's own routes, added through the admin API. Requests of the session match them
    /// under the lock; adding or removing one changes the tree at one place, whatever the count.
    struct RuntimeStubs {
        var byID: [String: Route] = [:]
        var byName: [String: Route] = [:]
        var matcher = RouteMatcher()
    }

    /// How many random numbers templates have drawn (`randomInt`, `uuid`). With `seed`, from the
    /// session id, a run of the same test draws the same numbers, so a failure repeats.
    private let draws = Atomic<UInt64>(0)
    private let seed: UInt64

    /// Whether route states charge a sole fixed-key quota directly (see `SoleQuota`); off only in
    /// the test that compares that shortcut with the general path.
    let takesShortcuts: Bool

    init(id: String, clock: ClockSetting, journalCapacity: Int, takesShortcuts: Bool = true,
         storage: SessionStorageAccount = .unbounded()) {
        self.id = id
        self.takesShortcuts = takesShortcuts
        self.storage = storage
        self.clock = SessionClock(clock)
        self.journal = RequestJournal(capacity: journalCapacity, storage: storage)
        streams = StreamTraffic(capacity: journalCapacity, storage: storage)
        streamJournal = StreamJournal(capacity: journalCapacity, storage: storage)
        scenarios = ScenarioStates(storage: storage)
        seed = FNV1a(id.utf8).value
    }

    /// The next of the session's random numbers (SplitMix64 over the draw count).
    func nextRandom() -> UInt64 {
        var z = seed &+ (draws.add(1, ordering: .relaxed).oldValue &+ 1) &* 0x9E3779B97F4A7C15
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }

    // MARK: Per-route state

    /// This session's state for `route`, a route of the catalog with `generation` (or a runtime stub).
    func state(for route: Route, generation: UInt64) -> RouteState {
        if let known = routeStates.withCurrent({ $0.generation == generation ? $0.states[route.index] : nil }) { return known }
        let fresh = makeState(for: route)
        routeStates.withCurrent { cache in
            if cache.generation != generation {
                // A request still on the previous catalog must not empty the cache of the new one.
                guard generation > cache.generation else { return }
                cache = RouteStateCache(generation: generation)
            }
            cache.states[route.index] = fresh
        }
        return fresh
    }

    private func makeState(for route: Route) -> RouteState {
        let counter = counter(for: route)
        let ledgers = route.quotaPlans.map { ledger(for: $0.quota) }
        return RouteState(route: route, counter: counter, ledgers: ledgers, shortcut: takesShortcuts)
    }

    package func counter(for route: Route) -> HitCounter {
        routeCounters.withLock { table in
            if let c = table[route.key] { return c }
            let c = HitCounter()
            table[route.key] = c
            return c
        }
    }

    func recordHit(_ route: Route, _ state: RouteState, _ request: RequestHead) {
        state.counter.increment()
        // Keyed by the path the request already carries, then the method: no string is built per request.
        pathCounts.withCurrent { $0.add(path: request.normalizedPath, method: request.method) }
        if waiters.hasPending { waiters.notify(route: route, request: request) { hits(for: $0) } }
    }

    /// A request passed on to the real API: counted by its path (no route answered it).
    func recordForwardedHit(_ request: RequestHead) {
        forwardedCounts.withLock { $0["\(request.method) \(request.normalizedPath)", default: 0] += 1 }
        pathCounts.withCurrent { $0.add(path: request.normalizedPath, method: request.method) }
        if waiters.hasPending { waiters.notify(route: nil, request: request) { hits(for: $0) } }
    }

    /// Hits of a route key (name or `GET /pattern`), or of concrete paths: `GET /a/b` exactly,
    /// or every path a pattern such as `GET /api/{key}/**` covers.
    package func hits(for query: RouteQuery) -> Int {
        if let c = routeCounters.withLock({ $0[query.text] }) { return c.count }
        switch query.target {
        case .name:
            return 0
        case let .concrete(method, path):
            // A concrete method counts its own requests only (GET here is not GET and HEAD, as a route's is).
            return sumOfPathCounts { table in
                guard let methods = table[path] else { return 0 }
                if case .only(let name) = method { return methods[name] ?? 0 }
                return methods.values.reduce(0, +)
            }
        case let .pattern(method, pattern):
            return sumOfPathCounts { table in
                table.reduce(0) { sum, entry in
                    guard pattern.match(PathPattern.split(entry.key)) != nil else { return sum }
                    return entry.value.reduce(sum) { $0 + (method.accepts($1.key) ? $1.value : 0) }
                }
            }
        }
    }

    /// Adds up `count(table)` over every worker's table of path → method → hits.
    private func sumOfPathCounts(_ count: ([String: [HTTPRequest.Method: Int]]) -> Int) -> Int {
        pathCounts.reduce(0) { sum, counts in sum + count(counts.table) }
    }

    package func allPathCounts() -> [String: Int] {
        var all: [String: Int] = [:]
        pathCounts.forEach { counts in
            for (path, methods) in counts.table { for (method, n) in methods { all["\(method) \(path)", default: 0] += n } }
        }
        return all
    }

    package func allForwardedCounts() -> [String: Int] { forwardedCounts.withLock { $0 } }

    /// Route key → counter, for coverage.
    func hitCounters() -> [String: HitCounter] { routeCounters.withLock { $0 } }

    package func routeCounts() -> [String: Int] {
        routeCounters.withLock { $0.mapValues(\.count) }
    }

    // MARK: Sequences and times

    /// Whether a route with `times` still has uses left in this session.
    func isAvailable(_ route: Route, _ request: RequestHead) -> Bool {
        // A route of a scenario answers only in its state: otherwise the next matching route answers.
        if let step = route.scenario, !scenarioAllows(step, route, request) { return false }
        guard let times = route.times else { return true }
        return served.withLock { ($0[route.key] ?? 0) < times }
    }

    /// The next answer of a route, advancing its sequence and moving its scenario. Nil when `times`
    /// ran out, or its scenario moved on, since matching (the request is then matched again).
    /// A route without a scenario takes the inlined path: no scenario code in every request's way.
    @inline(__always)
    func nextResponse(_ route: Route, _ request: RequestHead) throws(ScenarioRefusal) -> CannedResponse? {
        guard let step = route.scenario else { return nextAnswer(route) }
        return try nextResponse(route, request, moving: step)
    }

    @inline(never)
    private func nextResponse(_ route: Route, _ request: RequestHead, moving step: ScenarioStep) throws(ScenarioRefusal)
        -> CannedResponse? {
        var key: String?
        if let source = step.key {
            guard let value = source.value(in: request, pattern: route.pattern) else { return nil }
            if let refusal = ScenarioRefusal.badKey(value, scenario: step.name, from: "the request's \(source)") { throw refusal }
            key = value
        }
        return try scenarios.claim(step, key: key, now: { self.clock.now() }) { nextAnswer(route) }
    }

    /// Whether the scenario (the request's key of it, for a keyed one) is in the step's state; a
    /// request without the key's value is not one a keyed route answers.
    private func scenarioAllows(_ step: ScenarioStep, _ route: Route, _ request: RequestHead) -> Bool {
        var key: String?
        if let source = step.key {
            guard let value = source.value(in: request, pattern: route.pattern) else { return false }
            key = value
        }
        return scenarios.allows(step, key: key, now: { self.clock.now() })
    }

    /// A route with one answer and no `times` reads it without the lock (inlined); the rest take it.
    @inline(__always)
    private func nextAnswer(_ route: Route) -> CannedResponse? {
        if !route.isStateful { return route.responses[0] }
        return nextCountedAnswer(route)
    }

    @inline(never)
    private func nextCountedAnswer(_ route: Route) -> CannedResponse? {
        served.withLock { table -> CannedResponse? in
            let n = table[route.key] ?? 0
            if let times = route.times, n >= times { return nil }
            table[route.key] = n + 1
            let count = route.responses.count
            return route.responses[route.cycle ? n % count : min(n, count - 1)]
        }
    }

    // MARK: Quotas

    package func ledger(for quota: QuotaDefinition) -> QuotaLedger {
        ledgers.withLock { table in
            if let l = table[quota.name], l.quota.shape == quota.shape {
                // A reload that keeps the counts may have changed the cap.
                l.maxKeys.store(quota.maxKeys, ordering: .relaxed)
                return l
            }
            let l = QuotaLedger(quota: quota)
            table[quota.name] = l
            return l
        }
    }

    package func existingLedgers() -> [String: QuotaLedger] { ledgers.withLock { $0 } }

    /// Emptied in place: route states hold on to their ledgers.
    package func resetQuotas() { ledgers.withLock { table in for ledger in table.values { ledger.reset() } } }

    /// Drops every quota key whose windows have all passed on the session's clock: after the admin
    /// API moved it, which may have passed every window at once.
    package func sweepQuotas() {
        let now = clock.now()
        for ledger in existingLedgers().values { ledger.sweep(at: now) }
    }

    // MARK: Runtime stubs

    package var hasRuntimeStubs: Bool { runtimeCount.load(ordering: .relaxed) > 0 }
    package var runtimeStubCount: Int { runtimeCount.load(ordering: .relaxed) }

    /// Adds a parsed runtime stub unless its name is taken here; returns the route holding the name.
    package func addRuntime(_ route: Route, id: String) -> Route? {
        runtime.withLock { r in
            if let name = route.name {
                if let taken = r.byName[name] { return taken }
                r.byName[name] = route
            }
            r.byID[id] = route
            r.matcher.insert(route)
            runtimeCount.store(r.byID.count, ordering: .relaxed)
            return nil
        }
    }

    package func removeRuntime(id: String) -> Bool {
        runtime.withLock { r in
            guard let route = r.byID.removeValue(forKey: id) else { return false }
            if let name = route.name { r.byName[name] = nil }
            r.matcher.remove(route)
            runtimeCount.store(r.byID.count, ordering: .relaxed)
            routeStates.forEach { _ = $0.states.removeValue(forKey: route.index) }
            return true
        }
    }

    /// Newest first, as they take precedence.
    package func runtimeStubs() -> [(id: String, route: Route)] {
        runtime.withLock { r in r.byID.map { (id: $0.key, route: $0.value) } }.sorted { $0.route.index < $1.route.index }
    }

    /// The runtime stub that answers, matched again without each one found used up (the matcher
    /// asks this session nothing: see `RouteMatcher.match`).
    func runtimeMatch(_ request: RequestHead) -> MatchResult {
        var excluded: Set<Int> = []
        while true {
            let found = runtime.withLock { r in r.matcher.match(request, excluding: excluded) }
            guard case .matched(let route, _) = found, !isAvailable(route, request) else { return found }
            excluded.insert(route.index)
        }
    }

    // MARK: Resources

    /// This session's items of `resource`. Kept by name across a reload (a test's items survive an
    /// edit of the folder); a reset starts them from the seed again.
    package func resourceStore(for resource: ResourceDefinition) -> ResourceStore {
        resourceStores.withLock { stores in
            if let store = stores[resource.name] { return store }
            let store = ResourceStore(resource, storage: storage)
            stores[resource.name] = store
            return store
        }
    }

    // MARK: Reset

    /// Everything back to the start: hits, sequences, quotas, journal, runtime stubs, the clock,
    /// resources' items, scenarios' states and the GraphQL queries registered by hash.
    func reset() {
        routeCounters.withLock { table in for c in table.values { c.reset() } }
        routeStates.forEach { $0 = RouteStateCache(generation: $0.generation) }
        pathCounts.forEach { $0 = PathCounts() }
        forwardedCounts.withLock { $0 = [:] }
        unmatched.store(0, ordering: .relaxed)
        served.withLock { $0 = [:] }
        resetQuotas()
        journal.reset()
        runtime.withLock { $0 = RuntimeStubs() }
        runtimeCount.store(0, ordering: .relaxed)
        persistedQueries.removeAll()
        clock.reset()
        draws.store(0, ordering: .relaxed)
        setPreferred(nil)
        let stores = resourceStores.withLock { stores in
            defer { stores = [:] }
            return stores
        }
        for store in stores.values { store.retire() }
        scenarios.reset()
        scenarios.resetCounts()
        streams.reset()
        streamJournal.reset()
        waiters.fireAll()
    }

    /// The session was evicted or dropped: what it kept leaves the storage budget at once, and what
    /// an open socket may still hold on to (its traffic, its stream journal) is let go, so a reset
    /// frees the WebSocket messages kept even while their sockets stay open.
    func giveUpStorage() {
        storage.close()
        streams.dropKept()
        streamJournal.reset()
    }

    // MARK: Prefer

    package var preferredAnswer: String? {
        hasPreferred.load(ordering: .acquiring) ? preferred.withLock { $0 } : nil
    }

    package func setPreferred(_ value: String?) {
        preferred.withLock { $0 = value }
        hasPreferred.store(value != nil, ordering: .releasing)
    }

    /// `request` as this session matches it, with the session's `Prefer`, when the session has one
    /// and the request sends none; nil when it is to be matched as it is (no copy made).
    package func applyingPreference(to request: RequestHead) -> RequestHead? {
        guard let prefer = preferredAnswer, request.header(.prefer) == nil else { return nil }
        var copy = request
        copy.headers.append(HTTPField(name: .prefer, value: prefer))
        return copy
    }
}

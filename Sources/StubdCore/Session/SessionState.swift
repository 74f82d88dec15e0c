import Foundation
import Synchronization

/// Everything a test can observe or change about one session: hits, sequence positions, quotas,
/// the clock, the journal and runtime stubs. The default session (id "") is the one without a prefix.
public final class SessionState: Sendable {
    public let id: String
    public let clock: SessionClock
    public let journal: RequestJournal
    let waiters = HitWaiters()
    /// When a request or admin call last named this session (uptime nanoseconds), for eviction.
    let lastUsed = Atomic<UInt64>(0)

    /// Route key → counter. The default session's counters are also hung on each route, so counting is one atomic add.
    private let routeCounters = Mutex<[String: HitCounter]>([:])
    /// "GET /concrete/path" → hits, one table per worker thread (see `ThreadStripe`); a count is the sum.
    private let pathCounts: [PathCountStripe] = (0..<ThreadStripe.count).map { _ in PathCountStripe() }
    let unmatched = Atomic<Int>(0)
    /// Route key → answers served (sequence position and `times`).
    private let served = Mutex<[String: Int]>([:])
    private let ledgers = Mutex<[String: QuotaLedger]>([:])
    private let runtime = Mutex<RuntimeStubs>(RuntimeStubs())
    private let runtimeCount = Atomic<Int>(0)

    struct RuntimeStubs {
        var routes: [(id: String, route: Route)] = []
        var matcher = RouteMatcher(routes: [])
    }

    init(id: String, clock: ClockSetting, journalCapacity: Int) {
        self.id = id
        self.clock = SessionClock(clock)
        self.journal = RequestJournal(capacity: journalCapacity)
    }

    // MARK: Hits

    func counter(for route: Route) -> HitCounter {
        if id.isEmpty { return route.defaultCounter }
        return routeCounters.withLock { table in
            if let c = table[route.key] { return c }
            let c = HitCounter()
            table[route.key] = c
            return c
        }
    }

    /// Hangs the default session's counters and quota ledgers on a new catalog's routes, keeping the
    /// counts of routes and quotas that survive.
    func adopt(_ routes: [Route]) {
        routeCounters.withLock { table in
            for route in routes {
                if let existing = table[route.key] { route.defaultCounter = existing } else { table[route.key] = route.defaultCounter }
            }
        }
        for route in routes {
            route.defaultLedgers = route.quotaPlans.map { ledger(for: $0.quota) }
            route.defaultCells = zip(route.quotaPlans, route.defaultLedgers).map { plan, ledger in plan.constantKey.map { ledger.cell(for: $0) } }
            route.defaultSoleQuota = SoleQuota(route)
        }
    }

    func recordHit(_ route: Route, _ request: RequestHead) {
        counter(for: route).increment()
        // Keyed by the path the request already carries, then the method: no string is built per request.
        pathCounts[ThreadStripe.current].table.withLock { $0.add(path: request.normalizedPath, method: request.method) }
        if waiters.hasPending { waiters.notify(route: route, request: request) { hits(for: $0) } }
    }

    /// Hits of a route key (name or `GET /pattern`), or of concrete paths: `GET /a/b` exactly,
    /// or every path a pattern such as `GET /api/{key}/**` covers.
    public func hits(for query: String) -> Int {
        if let c = routeCounters.withLock({ $0[query] }) { return c.count }
        let parts = query.split(separator: " ", maxSplits: 1)
        let (method, pathText) = parts.count == 2 ? (String(parts[0]).uppercased(), String(parts[1])) : ("ANY", query)
        guard pathText.hasPrefix("/") else { return 0 }
        let methodMatch: MethodMatch = method == "ANY" ? .any : .only(method)
        if !pathText.contains("{"), !pathText.contains("**") {
            let normalized = RequestHead(method: method, path: pathText).normalizedPath
            return sumOfPathCounts { table in
                guard let methods = table[normalized] else { return 0 }
                return method == "ANY" ? methods.values.reduce(0, +) : methods[method] ?? 0
            }
        }
        guard let pattern = try? PathPattern(parsing: pathText) else { return 0 }
        return sumOfPathCounts { table in
            table.reduce(0) { sum, entry in
                guard pattern.match(PathPattern.split(entry.key)) != nil else { return sum }
                return entry.value.reduce(sum) { $0 + (methodMatch.accepts($1.key) ? $1.value : 0) }
            }
        }
    }

    /// Adds up `count(table)` over every worker's table of path → method → hits.
    private func sumOfPathCounts(_ count: ([String: [String: Int]]) -> Int) -> Int {
        pathCounts.reduce(0) { sum, stripe in sum + stripe.table.withLock { count($0.table) } }
    }

    public func allPathCounts() -> [String: Int] {
        var all: [String: Int] = [:]
        for stripe in pathCounts {
            stripe.table.withLock { table in
                for (path, methods) in table.table { for (method, n) in methods { all["\(method) \(path)", default: 0] += n } }
            }
        }
        return all
    }

    public func routeCounts() -> [String: Int] {
        routeCounters.withLock { $0.mapValues(\.count) }
    }

    // MARK: Sequences and times

    /// Whether a route with `times` still has uses left in this session.
    func isAvailable(_ route: Route) -> Bool {
        guard let times = route.times else { return true }
        return served.withLock { ($0[route.key] ?? 0) < times }
    }

    /// The next answer of a route, advancing its sequence. Nil when `times` ran out since matching.
    func nextResponse(_ route: Route) -> CannedResponse? {
        if !route.isStateful { return route.responses[0] }
        return served.withLock { table -> CannedResponse? in
            let n = table[route.key] ?? 0
            if let times = route.times, n >= times { return nil }
            table[route.key] = n + 1
            let count = route.responses.count
            return route.responses[route.cycle ? n % count : min(n, count - 1)]
        }
    }

    // MARK: Quotas

    func ledger(for quota: QuotaDefinition) -> QuotaLedger {
        ledgers.withLock { table in
            if let l = table[quota.name], l.quota.shape == quota.shape { return l }
            let l = QuotaLedger(quota: quota)
            table[quota.name] = l
            return l
        }
    }

    func existingLedgers() -> [String: QuotaLedger] { ledgers.withLock { $0 } }

    /// Emptied in place: the default session's routes hold on to their ledgers.
    func resetQuotas() { ledgers.withLock { table in for ledger in table.values { ledger.reset() } } }

    // MARK: Runtime stubs

    var hasRuntimeStubs: Bool { runtimeCount.load(ordering: .relaxed) > 0 }
    var runtimeStubCount: Int { runtimeCount.load(ordering: .relaxed) }

    func addRuntime(_ route: Route, id: String) {
        runtime.withLock { r in
            r.routes.insert((id, route), at: 0)
            for (i, entry) in r.routes.enumerated() { entry.route.order = i }
            r.matcher = RouteMatcher(routes: r.routes.map(\.route))
            runtimeCount.store(r.routes.count, ordering: .relaxed)
        }
    }

    func removeRuntime(id: String) -> Bool {
        runtime.withLock { r in
            guard let i = r.routes.firstIndex(where: { $0.id == id }) else { return false }
            r.routes.remove(at: i)
            r.matcher = RouteMatcher(routes: r.routes.map(\.route))
            runtimeCount.store(r.routes.count, ordering: .relaxed)
            return true
        }
    }

    func runtimeStubs() -> [(id: String, route: Route)] { runtime.withLock { $0.routes } }

    func runtimeMatch(_ request: RequestHead) -> MatchResult {
        let matcher = runtime.withLock { $0.matcher }
        return matcher.match(request) { self.isAvailable($0) }
    }

    // MARK: Reset

    /// Everything back to the start: hits, sequences, quotas, journal, runtime stubs and the clock.
    func reset() {
        routeCounters.withLock { table in for c in table.values { c.reset() } }
        for stripe in pathCounts { stripe.table.withLock { $0 = PathCounts() } }
        unmatched.store(0, ordering: .relaxed)
        served.withLock { $0 = [:] }
        resetQuotas()
        journal.reset()
        runtime.withLock { $0 = RuntimeStubs() }
        runtimeCount.store(0, ordering: .relaxed)
        clock.reset()
        waiters.fireAll()
    }
}

/// One of the locks concrete-path counts are spread over.
final class PathCountStripe: Sendable {
    let table = Mutex(PathCounts())
}

/// One worker's hits per concrete path and method. Requests mostly repeat the path and method of
/// the one before, so that pair's slot is remembered and the two hash lookups skipped.
struct PathCounts {
    /// Path → method → index into `counts`.
    private var slots: [String: [String: Int]] = [:]
    private var counts: [Int] = []
    private var last: (path: String, method: String, slot: Int)?

    mutating func add(path: String, method: String) {
        if let last, last.path == path, last.method == method {
            counts[last.slot] += 1
            return
        }
        let slot: Int
        if let known = slots[path]?[method] {
            slot = known
        } else {
            slot = counts.count
            counts.append(0)
            slots[path, default: [:]][method] = slot
        }
        counts[slot] += 1
        last = (path, method, slot)
    }

    /// Path → method → hits.
    var table: [String: [String: Int]] { slots.mapValues { $0.mapValues { counts[$0] } } }
}

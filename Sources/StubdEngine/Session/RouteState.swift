/// What a session keeps about one route: made on the route's first request in the session and
/// kept for as long as its catalog is in force.
package final class RouteState: Sendable {
    let counter: HitCounter
    /// One per `route.quotaPlans`.
    let ledgers: [QuotaLedger]
    /// For plans whose key is the same on every request: that key's cell in `ledgers`.
    let cells: [KeyCell?]
    /// Set when the route has one quota whose key is fixed: charged without the general loop (see `StubEngine.answer`).
    let soleQuota: SoleQuota?

    init(route: Route, counter: HitCounter, ledgers: [QuotaLedger], shortcut: Bool) {
        self.counter = counter
        self.ledgers = ledgers
        cells = zip(route.quotaPlans, ledgers).map { plan, ledger in plan.constantKey.map { ledger.pinnedCell(for: $0) } }
        soleQuota = shortcut && ledgers.count == 1 ? cells[0].flatMap { SoleQuota(route, ledger: ledgers[0], cell: $0) } : nil
    }
}

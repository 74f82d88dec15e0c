import StubdProtocol

/// One key's limits under one quota, with their own lock. A route whose quota key is fixed (global,
/// or a literal path segment) keeps its cell and charges it directly: no table, no second lock.
package final class KeyCell: Sendable {
    struct State {
        var limits: [LimitState]
        /// Whether anything counted here since the last reset (the admin API lists only these).
        var touched = false
        /// Whether the last request charged here was refused: the next accepted one is a recovery
        /// by the clock (coverage's `reset-by-clock`). A fill or reset clears it, being no clock.
        var exhausted = false
        /// Held by a route (see `RouteState.cells`), which charges it without the table: never dropped.
        var pinned = false
        /// Dropped from its ledger's table once every window passed (`QuotaLedger.sweep`). A request
        /// that fetched the cell before that must not count here, where no one would see it again:
        /// it fetches the key's cell anew.
        var retired = false
    }
    let state: Locked<State>

    init(limitCount: Int) {
        state = Locked(State(limits: Array(repeating: LimitState(), count: limitCount)))
    }
}

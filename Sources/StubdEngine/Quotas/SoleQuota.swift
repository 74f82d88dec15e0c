import Foundation

/// A route's only quota when its key is the same for every request the route answers (`global`, or
/// a literal path segment), with a session's cell for that key: the usual shape, charged by
/// `StubEngine.answer` without the general loop over plans, ledgers and cells.
///
/// The references are not retained: the `RouteState` that holds this also holds the ledger and
/// cell, and the route holds the quota; retaining them would make every worker write to the same
/// reference counts on every request. Even `unowned(unsafe)` references are retained around a
/// call, so the ledger and cell are called through `Unmanaged` (see `chargeIfRoom`).
package struct SoleQuota: @unchecked Sendable {
    unowned(unsafe) let quota: QuotaDefinition
    private let ledgerReference: Unmanaged<QuotaLedger>
    private let cellReference: Unmanaged<KeyCell>
    let key: String

    /// `QuotaLedger.chargeIfRoom` without retaining the ledger or the cell.
    func chargeIfRoom(at date: Date) -> Standing? {
        ledgerReference._withUnsafeGuaranteedRef { ledger in
            cellReference._withUnsafeGuaranteedRef { cell in ledger.chargeIfRoom(cell, at: date) }
        }
    }

    /// Nil unless the route has exactly one quota plan, with a constant key, whose selector's method
    /// covers every method the route answers. `ledger` and `cell` are the session's for that key.
    init?(_ route: Route, ledger: QuotaLedger, cell: KeyCell) {
        guard route.quotaPlans.count == 1, let plan = route.quotaPlans.first, let key = plan.constantKey else { return nil }
        guard plan.method == .any || plan.method == route.method else { return nil }
        (quota, ledgerReference, cellReference, self.key) = (plan.quota, .passUnretained(ledger), .passUnretained(cell), key)
    }
}

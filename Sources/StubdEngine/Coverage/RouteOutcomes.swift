import StubdProtocol

/// What coverage needs about a route beyond its hit count, counted only on paths that are already
/// the slow ones (a quota refusal, a recovery, a quota key the request lacks): a plain answer adds
/// nothing here. Which answers were sent is derived from the hit count (`CoverageTally`), since a
/// sequence hands them out in order. Kept beside the route's `HitCounter`, so it survives a reload.
package final class RouteOutcomes: Sendable {
    package struct Counts: Sendable, Equatable {
        /// Answer index → requests refused by a quota after that answer was picked (it was not sent).
        var refusedAt: [Int: Int] = [:]
        /// Quota name → what that quota did on this route.
        var quotas: [String: QuotaCounts] = [:]
    }

    package struct QuotaCounts: Sendable, Equatable {
        var refused = 0
        /// Requests the quota did not charge: no key in the request, or an earlier quota refused them.
        var uncharged = 0
        /// Accepted after a refusal of the same key, the window having passed.
        var recovered = 0
    }

    private let counts = Locked(Counts())

    var snapshot: Counts { counts.withLock { $0 } }

    func refused(answer: Int?, by quota: String, skipping later: ArraySlice<QuotaPlan>) {
        counts.withLock { c in
            if let answer { c.refusedAt[answer, default: 0] += 1 }
            c.quotas[quota, default: QuotaCounts()].refused += 1
            for plan in later { c.quotas[plan.quota.name, default: QuotaCounts()].uncharged += 1 }
        }
    }

    func uncharged(by quota: String) { counts.withLock { $0.quotas[quota, default: QuotaCounts()].uncharged += 1 } }

    func recovered(by quota: String) { counts.withLock { $0.quotas[quota, default: QuotaCounts()].recovered += 1 } }

    func reset() { counts.withLock { $0 = Counts() } }
}

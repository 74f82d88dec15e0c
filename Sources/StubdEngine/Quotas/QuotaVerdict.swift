package import Foundation

/// The verdict on one request under one quota.
package struct QuotaVerdict: Sendable {
    package let quota: QuotaDefinition
    package let key: String
    package let accepted: Bool
    /// Every limit after the request (or without it, when rejected).
    package let statuses: [LimitStatus]
    /// The limits that rejected the request.
    package let violated: [LimitStatus]
    /// Whole seconds until every violated limit passes, at least 1.
    package let retryAfter: Int
    package let now: Date

    /// The limit nearest to running out: least remaining, then soonest reset.
    package var tightest: LimitStatus? {
        statuses.min { ($0.remaining, $0.resetsIn) < ($1.remaining, $1.resetsIn) }
    }

    /// The same verdict told as `definition` answers. A reload that changes only how a quota answers
    /// (its profile, its headers) keeps the ledger and its counts, and the ledger's definition with
    /// them; the answer must follow the catalog in force.
    func answered(as definition: QuotaDefinition) -> QuotaVerdict {
        QuotaVerdict(quota: definition, key: key, accepted: accepted, statuses: statuses, violated: violated,
                     retryAfter: retryAfter, now: now)
    }
}

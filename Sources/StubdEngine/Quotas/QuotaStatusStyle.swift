/// The shape of a built-in answer that reports the session's live quotas (`quotaStatus:`).
package enum QuotaStatusStyle: String, Sendable, CaseIterable {
    /// GitHub's `GET /rate_limit`: `{"resources": {"core": {...}}, "rate": {...}}`.
    case github
}

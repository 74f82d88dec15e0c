/// A quota note as the journal keeps it. Unlike `QuotaNote` it owns what it holds (a reload may
/// free the quota before the journal is read), and it holds no formatted text: a name of up to 15
/// bytes is stored inline, so keeping it costs no allocation and no reference count.
package enum JournalQuotaNote: Sendable, CustomStringConvertible {
    case used(quota: String, used: Int, limit: Int, window: String)
    /// `frozenClock`: the session's clock is virtual, so `Retry-After` counts down only when a test
    /// moves it; the note says so, or the same number every time looks like a bug.
    case exceeded(quota: String, retryAfter: Int, frozenClock: Bool)
    /// Several quotas at once (rare): formatted when the request was answered.
    case text(String)

    package var description: String {
        switch self {
        case let .used(quota, used, limit, window): return "\(quota) \(used)/\(limit) \(window)"
        case let .exceeded(quota, retryAfter, frozen):
            return "\(quota) exceeded, retry in \(retryAfter)s" + (frozen ? QuotaNote.frozenClockHint : "")
        case .text(let text): return text
        }
    }
}

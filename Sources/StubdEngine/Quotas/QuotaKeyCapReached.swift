/// A request (or a fill) named a new key while its quota already counts `maxKeys` keys whose
/// windows have not all passed. Refused rather than counted somewhere wrong: forgetting a live key
/// would give it a fresh window, a wrong verdict later.
package struct QuotaKeyCapReached: Error, Sendable, CustomStringConvertible {
    package let quota: String
    package let cap: Int
    /// Where the quota is defined (`stubd.yml:4`), where `maxKeys` goes.
    package let source: String

    package var description: String {
        "quota '\(quota)' counts \(cap) keys at once, its cap (maxKeys); a key is forgotten once all its windows have passed. "
            + "Raise the cap with `maxKeys:` on the quota (\(source)), or reset quotas (POST /__stubd/quotas/reset)"
    }
}

/// How one limit stands for one key at one instant.
package struct LimitStatus: Sendable {
    package let limit: QuotaLimit
    package let remaining: Int
    /// Seconds until this limit has room again (fixed, sliding) or is full again (token bucket).
    package let resetsIn: Int
    package let used: Int
}

extension LimitStatus {
    init(_ standing: Standing, of quota: QuotaDefinition) {
        self.init(limit: quota.limits[standing.index], remaining: standing.remaining, resetsIn: standing.resetsIn, used: standing.used)
    }
}

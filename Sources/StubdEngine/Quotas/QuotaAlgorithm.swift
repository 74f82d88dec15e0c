package enum QuotaAlgorithm: String, Sendable, CaseIterable {
    /// Windows aligned to the calendar: the minute counter empties at :00 (Open-Meteo, Weather Underground).
    case fixed
    /// A window that ends now: the last N seconds.
    case sliding
    /// Capacity refills continuously at `count / window` (Stripe).
    case tokenBucket = "token_bucket"
}

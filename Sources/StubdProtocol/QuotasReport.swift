/// `GET /__stubd/quotas` (and the answer to a reset or a fill): each quota and how the keys it
/// counts stand now, on the session's clock, a page at a time (`limit`, `cursor`; see `next`).
public struct QuotasReport: Sendable, Equatable, Codable {
    public struct Quota: Sendable, Equatable, Codable {
        public let name: String
        public let algorithm: String
        /// `path key`, `query appid`, `header x-api-key`, `ip`, `global`.
        public let key: String
        public let limits: [String]
        public let routes: [String]
        /// This page's keys (see `QuotasReport.next`).
        public let keys: [KeyStanding]
        /// Keys the quota counts now, on every page; keys whose windows have all passed are forgotten.
        public let keyCount: Int?
        /// The most keys it counts at once (`maxKeys:`); a new key past it gets a 503.
        public let maxKeys: Int?
        public init(name: String, algorithm: String, key: String, limits: [String], routes: [String], keys: [KeyStanding],
                    keyCount: Int? = nil, maxKeys: Int? = nil) {
            self.name = name; self.algorithm = algorithm; self.key = key; self.limits = limits; self.routes = routes; self.keys = keys
            self.keyCount = keyCount; self.maxKeys = maxKeys
        }
    }

    public struct KeyStanding: Sendable, Equatable, Codable {
        /// "" for a global quota.
        public let key: String
        public let limits: [LimitStanding]
        public init(key: String, limits: [LimitStanding]) { self.key = key; self.limits = limits }
    }

    public struct LimitStanding: Sendable, Equatable, Codable {
        /// `minute`, `day`, `15minutes`.
        public let policy: String
        public let limit: Int
        public let used: Int
        public let remaining: Int
        public let resetsIn: Int

        public init(policy: String, limit: Int, used: Int, remaining: Int, resetsIn: Int) {
            self.policy = policy; self.limit = limit; self.used = used; self.remaining = remaining; self.resetsIn = resetsIn
        }

        private enum CodingKeys: String, CodingKey {
            case policy, limit, used, remaining
            case resetsIn = "resets_in"
        }
    }

    public let session: String
    /// The session clock's time, ISO 8601.
    public let now: String
    public let quotas: [Quota]
    /// Set when keys are left after this page: `GET /__stubd/quotas?cursor=NEXT` (with the same
    /// `limit`) reads on. A page holds at most `limit` keys over all quotas (default 1000).
    public let next: String?

    public init(session: String, now: String, quotas: [Quota], next: String? = nil) {
        self.session = session; self.now = now; self.quotas = quotas; self.next = next
    }

    /// Keys a page holds when the call names no `limit`, and the most it may name.
    public static let defaultPageSize = 1000
    public static let maxPageSize = 10_000
}

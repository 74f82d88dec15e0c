/// `GET /__stubd/quotas` (and the answer to a reset or a fill): each quota and how the keys it
/// counts stand now, on the session's clock, a page at a time (`limit`, `cursor`; see `next`).
public struct QuotasReport: Sendable, Equatable, Codable {
    /// One quota of the manifest's `quotas:`, and how the keys it counts stand.
    public struct Quota: Sendable, Equatable, Codable {
        /// Its name in the manifest: `wunderground`.
        public let name: String
        /// `fixed` (calendar-aligned windows), `sliding` or `token_bucket`, as its `algorithm:` says.
        public let algorithm: String
        /// `path key`, `query appid`, `header x-api-key`, `ip`, `global`.
        public let key: String
        /// Its limits as the manifest writes them: `10/minute`, `500/day`.
        public let limits: [String]
        /// The routes it counts, as its `routes:` lists them: patterns or route names.
        public let routes: [String]
        /// This page's keys (see `QuotasReport.next`).
        public let keys: [KeyStanding]
        /// Keys the quota counts now, on every page; keys whose windows have all passed are forgotten.
        public let keyCount: Int?
        /// The most keys it counts at once (`maxKeys:`); a new key past it gets a 503.
        public let maxKeys: Int?
        /// A quota's entry as given.
        public init(name: String, algorithm: String, key: String, limits: [String], routes: [String], keys: [KeyStanding],
                    keyCount: Int? = nil, maxKeys: Int? = nil) {
            self.name = name; self.algorithm = algorithm; self.key = key; self.limits = limits; self.routes = routes; self.keys = keys
            self.keyCount = keyCount; self.maxKeys = maxKeys
        }
    }

    /// One key a quota counts, and how it stands against each limit.
    public struct KeyStanding: Sendable, Equatable, Codable {
        /// "" for a global quota.
        public let key: String
        /// One standing per limit of the quota, in the manifest's order.
        public let limits: [LimitStanding]
        /// A key's standing as given.
        public init(key: String, limits: [LimitStanding]) { self.key = key; self.limits = limits }
    }

    /// How one key stands against one limit, on the session's clock.
    public struct LimitStanding: Sendable, Equatable, Codable {
        /// `minute`, `day`, `15minutes`.
        public let policy: String
        /// Requests allowed per window.
        public let limit: Int
        /// Requests counted in the window so far, pre-fills (`PUT /__stubd/quotas/{name}`) included.
        public let used: Int
        /// Requests left before the quota refuses one: `limit - used`, never below 0.
        public let remaining: Int
        /// Seconds, rounded up, on the session's clock until room comes back: the window's end for `fixed`, the
        /// oldest request leaving it for `sliding`, the refill for `token_bucket`. `resets_in` on the wire.
        public let resetsIn: Int

        /// A standing as given.
        public init(policy: String, limit: Int, used: Int, remaining: Int, resetsIn: Int) {
            self.policy = policy; self.limit = limit; self.used = used; self.remaining = remaining; self.resetsIn = resetsIn
        }

        private enum CodingKeys: String, CodingKey {
            case policy, limit, used, remaining
            case resetsIn = "resets_in"
        }
    }

    /// The session reported on; `""` for the default one.
    public let session: String
    /// The session clock's time, ISO 8601.
    public let now: String
    /// Every quota of the catalog, in the manifest's order, each with this page's keys.
    public let quotas: [Quota]
    /// Set when keys are left after this page: `GET /__stubd/quotas?cursor=NEXT` (with the same
    /// `limit`) reads on. A page holds at most `limit` keys over all quotas (default 1000).
    public let next: String?

    /// A report, or one page of it, as given.
    public init(session: String, now: String, quotas: [Quota], next: String? = nil) {
        self.session = session; self.now = now; self.quotas = quotas; self.next = next
    }

    /// Keys a page holds when the call names no `limit`, and the most it may name.
    public static let defaultPageSize = 1000
    /// The most keys a page may hold; a larger `limit` is refused with a 400.
    public static let maxPageSize = 10_000
}

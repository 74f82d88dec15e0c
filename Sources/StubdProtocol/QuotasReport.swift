/// `GET /__stubd/quotas` (and the answer to a reset or a fill): each quota and how every key it
/// has counted stands now, on the session's clock.
public struct QuotasReport: Sendable, Equatable, Codable {
    public struct Quota: Sendable, Equatable, Codable {
        public let name: String
        public let algorithm: String
        /// `path key`, `query appid`, `header x-api-key`, `ip`, `global`.
        public let key: String
        public let limits: [String]
        public let routes: [String]
        public let keys: [KeyStanding]
        public init(name: String, algorithm: String, key: String, limits: [String], routes: [String], keys: [KeyStanding]) {
            self.name = name; self.algorithm = algorithm; self.key = key; self.limits = limits; self.routes = routes; self.keys = keys
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

    public init(session: String, now: String, quotas: [Quota]) {
        self.session = session; self.now = now; self.quotas = quotas
    }
}

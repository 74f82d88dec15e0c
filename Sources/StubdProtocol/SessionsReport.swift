import Foundation

/// `GET /__stubd/sessions`: the sessions the server holds, the default one ("") first.
public struct SessionsReport: Sendable, Equatable, Codable {
    public struct Session: Sendable, Equatable, Codable {
        public let id: String
        /// Requests journaled since the session began or was last reset.
        public let requests: Int
        public let unmatched: Int
        public let runtimeStubs: Int
        /// The session's clock (ISO 8601), and whether it is virtual (moves only through the admin API).
        public let now: String
        public let frozen: Bool

        public init(id: String, requests: Int, unmatched: Int, runtimeStubs: Int, now: String, frozen: Bool) {
            self.id = id; self.requests = requests; self.unmatched = unmatched
            self.runtimeStubs = runtimeStubs; self.now = now; self.frozen = frozen
        }
    }

    /// At most `StubServer.Options.maxSessions` named sessions besides the default one.
    public let maxSessions: Int
    public let sessions: [Session]

    public init(maxSessions: Int, sessions: [Session]) {
        self.maxSessions = maxSessions
        self.sessions = sessions
    }
}

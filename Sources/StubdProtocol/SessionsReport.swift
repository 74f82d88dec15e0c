import Foundation

/// `GET /__stubd/sessions`: the sessions the server holds, the default one ("") first.
public struct SessionsReport: Sendable, Equatable, Codable {
    /// One session and what it holds.
    public struct Session: Sendable, Equatable, Codable {
        /// Its id, as in `/__s/ID`; `""` for the default session.
        public let id: String
        /// Requests journaled since the session began or was last reset.
        public let requests: Int
        /// Requests of the session that matched no route.
        public let unmatched: Int
        /// Runtime stubs it holds (`POST /__stubd/stubs`).
        public let runtimeStubs: Int
        /// The session clock's time, ISO 8601 with fractional seconds.
        public let now: String
        /// True for a virtual clock (it moves only through the admin API), false for one that runs with the wall clock.
        public let frozen: Bool

        /// A session's entry as given.
        public init(id: String, requests: Int, unmatched: Int, runtimeStubs: Int, now: String, frozen: Bool) {
            self.id = id; self.requests = requests; self.unmatched = unmatched
            self.runtimeStubs = runtimeStubs; self.now = now; self.frozen = frozen
        }
    }

    /// At most `StubServer.Options.maxSessions` named sessions besides the default one.
    public let maxSessions: Int
    /// The default session first, then the named ones by id.
    public let sessions: [Session]

    /// A report as given.
    public init(maxSessions: Int, sessions: [Session]) {
        self.maxSessions = maxSessions
        self.sessions = sessions
    }
}

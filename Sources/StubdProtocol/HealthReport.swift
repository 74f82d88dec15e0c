import Foundation

/// `GET /__stubd/health`: that the server answers, what it is, and which folder it serves.
public struct HealthReport: Sendable, Equatable, Codable {
    /// Always `ok` from a running server.
    public let status: String
    public let version: String
    /// Routes in the catalog in force.
    public let routes: Int
    /// The Stubs folder as the server sees it, and its fingerprint: the fixtures check that a
    /// daemon behind `STUBD_URL` serves the same folder as the test's `stubs:`.
    public let stubs: Stubs?

    public struct Stubs: Sendable, Equatable, Codable {
        /// The folder's path on the server's machine (`/stubs` in the compose container).
        public let folder: String
        public let fingerprint: StubsFingerprint

        public init(folder: String, fingerprint: StubsFingerprint) {
            self.folder = folder
            self.fingerprint = fingerprint
        }
    }

    public init(status: String = "ok", version: String, routes: Int, stubs: Stubs?) {
        self.status = status
        self.version = version
        self.routes = routes
        self.stubs = stubs
    }
}

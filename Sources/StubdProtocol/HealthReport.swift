import Foundation

/// `GET /__stubd/health`: that the server answers, what it is, and which folder it serves.
public struct HealthReport: Sendable, Equatable, Codable {
    /// Always `ok` from a running server.
    public let status: String
    /// stubd's version (`0.1.0`), as `stubd --version` prints it.
    public let version: String
    /// Routes in the catalog in force.
    public let routes: Int
    /// The Stubs folder as the server sees it, and its fingerprint: the fixtures check that a
    /// daemon behind `STUBD_URL` serves the same folder as the test's `stubs:`.
    public let stubs: Stubs?
    /// The OpenAPI spec the stubs are held to (`serve --spec`); nil when there is none. With several,
    /// all of them in one entry: `specs` lists each.
    public let spec: Spec?
    /// Each spec given to `serve --spec`, in order, with its own version and operations; nil when
    /// there is none (and from a server older than the field).
    public let specs: [Spec]?
    /// Whether requests go on to a real API (`serve --proxy`, `stubd record`) and what was
    /// recorded; nil when nothing is forwarded.
    public let forwarding: Forwarding?

    /// Where stubd forwards requests (`serve --proxy`, `stubd record`), and what it recorded.
    public struct Forwarding: Sendable, Equatable, Codable {
        /// `proxy` (`serve --proxy`: what no stub answers) or `record` (`stubd record`: everything).
        public let mode: String
        /// The real API: `https://api.example.com`.
        public let target: String
        /// Whether what comes back is written into the Stubs folder (`--record-missing`, `stubd record`).
        public let recording: Bool
        /// Answers written since the server started.
        public let recorded: Int

        /// A forwarding entry as given.
        public init(mode: String, target: String, recording: Bool, recorded: Int) {
            self.mode = mode; self.target = target; self.recording = recording; self.recorded = recorded
        }
    }

    /// An OpenAPI spec `serve --spec` loaded. As `spec`, with several, all of them in one entry (`file`
    /// `a.yaml and b.yaml`, `operations` added up); in `specs`, one spec each.
    public struct Spec: Sendable, Equatable, Codable {
        /// The spec's file name, as given to `--spec`.
        public let file: String
        /// Its `openapi` field: `3.0.3`, `3.1.0`.
        public let openapi: String
        /// Operations the spec lists (a method on a path each).
        public let operations: Int

        /// A spec entry as given.
        public init(file: String, openapi: String, operations: Int) {
            self.file = file
            self.openapi = openapi
            self.operations = operations
        }
    }

    /// The Stubs folder the server serves.
    public struct Stubs: Sendable, Equatable, Codable {
        /// The folder's path on the server's machine (`/stubs` in the compose container).
        public let folder: String
        /// The folder's fingerprint: equal to `StubsFingerprint.of(folder:)` of the same folder on any machine.
        public let fingerprint: StubsFingerprint

        /// A folder entry as given.
        public init(folder: String, fingerprint: StubsFingerprint) {
            self.folder = folder
            self.fingerprint = fingerprint
        }
    }

    /// The health document with the fields given; `status` is `ok` from a running server.
    public init(status: String = "ok", version: String, routes: Int, stubs: Stubs?, spec: Spec? = nil, specs: [Spec]? = nil,
                forwarding: Forwarding? = nil) {
        self.status = status
        self.version = version
        self.routes = routes
        self.stubs = stubs
        self.spec = spec
        self.specs = specs
        self.forwarding = forwarding
    }
}

import Foundation
import StubdClient

/// What the test helpers (`StubdXCTest`, `StubdTesting`) share: where a test's stubs come from, and
/// how a hit-count assertion words its failure. Kept here so both frameworks behave the same.
public enum StubFixture {
    /// The environment variable that points tests at a running `stubd serve` (e.g. docker-compose).
    public static let environmentVariable = "STUBD_URL"

    /// A started fixture: what the test talks to, and what undoes it.
    public struct Started: Sendable {
        /// The in-process server, or this test's own session on the daemon at `$STUBD_URL`.
        public let control: any StubControl
        /// Stops the in-process server, or resets the session; call it once, after the test.
        public let teardown: @Sendable () async -> Void
        /// `in-process at http://127.0.0.1:PORT` or `session ID on http://HOST:PORT`, for logs.
        public let description: String
    }

    /// An in-process `StubServer` on 127.0.0.1 with a free port or, when `STUBD_URL` is set, a fresh
    /// session (a UUID) on the daemon it names, after checking that `/__stubd/health` answers and
    /// that the daemon serves the same folder as `stubs` (same files, same bytes).
    ///
    /// Throws `CatalogLoadError` (every problem in `stubs`), `StubdError.badConfiguration` when
    /// `STUBD_URL` is not an http URL, `StubdError.unreachable` naming the URL when nothing answers,
    /// or `StubdError.otherFolder` naming both folders when the daemon serves another one.
    public static func start(stubs: URL,
                             environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> Started {
        if let text = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            let daemon = StubdClient(baseURL: try daemonURL(text))
            try checkServesSameFolder(try await daemon.health(), stubs: stubs, daemon: daemon.baseURL)
            let id = UUID().uuidString
            let session = daemon.session(id)
            return Started(control: session,
                           teardown: { try? await session.reset() },
                           description: "session \(id) on \(daemon.baseURL.absoluteString) (\(environmentVariable))")
        }
        let server = try await StubServer.start(stubs: stubs)
        return Started(control: server, teardown: { await server.stop() },
                       description: "in-process at \(server.baseURL.absoluteString)")
    }

    /// Throws `StubdError.otherFolder` unless the daemon's folder has the fingerprint of `stubs`:
    /// against another folder the tests would fail with 404s that say nothing of the cause.
    public static func checkServesSameFolder(_ health: HealthReport, stubs: URL, daemon: URL) throws {
        guard let served = health.stubs else {
            throw StubdError.otherFolder(daemon: daemon.absoluteString, served: "an unknown folder (stubd \(health.version) reports no fingerprint; update it)",
                                         expected: stubs.path, expectedFingerprint: "")
        }
        guard let local = StubsFingerprint.of(folder: stubs) else {
            throw StubdError.badConfiguration("the test's stubs folder \(stubs.path) does not exist or cannot be read, so it cannot be compared with the folder \(daemon.absoluteString) (\(environmentVariable)) serves, \(served.folder)")
        }
        guard local == served.fingerprint else {
            throw StubdError.otherFolder(daemon: daemon.absoluteString, served: "\(served.folder) (\(served.fingerprint))",
                                         expected: stubs.path, expectedFingerprint: local.description)
        }
    }

    /// Parses `$STUBD_URL`: an absolute http(s) URL with a host, such as `http://127.0.0.1:8080`.
    public static func daemonURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw StubdError.badConfiguration(
                "\(environmentVariable)=\"\(text)\" is not an http URL; set it to the address `stubd serve` prints "
                + "(e.g. http://127.0.0.1:8080), or unset \(environmentVariable) to run an in-process server")
        }
        return url
    }

    /// Nil when `route` has `expected` hits on `control`; otherwise the failure text, e.g.
    /// `Expected 1 hit on GET /api/{key}/conditions/q/CA/{city}.json, but was 0 (2 unmatched requests; nearest: …)`.
    public static func hitMismatch(_ control: any StubControl, _ route: String, expected: Int) async throws -> String? {
        let actual = try await control.hits(route)
        guard actual != expected else { return nil }
        let report = try await StubdClient(baseURL: control.baseURL).unmatchedReport()
        return StubdError.hitMessage(route: route, expected: expected, actual: actual,
                                     unmatched: report.count, nearest: report.nearest)
    }
}

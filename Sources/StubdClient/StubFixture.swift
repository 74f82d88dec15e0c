public import Foundation
public import StubdProtocol

/// What the test helpers (`StubdXCTest`, `StubdTesting`) share: where a test's stubs come from, and
/// how a hit-count assertion words its failure. Kept here so both frameworks behave the same.
///
/// This part needs only Foundation. The starts are where their parts are: a session on a daemon
/// (`startRemote`) here; the engine without a socket (`startWithoutSocket`) in StubdInProcess, on
/// every platform; the in-process socket server (`start`) in Stubd, on Linux and macOS.
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

        /// A fixture made by hand: `teardown` undoes whatever made `control`.
        public init(control: any StubControl, teardown: @escaping @Sendable () async -> Void, description: String) {
            self.control = control
            self.teardown = teardown
            self.description = description
        }

        /// Runs `body` with `control`, then tears down, also when `body` throws: the one place the
        /// test helpers (`withStubServer`, the package's own tests) undo a fixture.
        package func run<R>(isolation: isolated (any Actor)? = #isolation,
                            _ body: (any StubControl) async throws -> R) async throws -> R {
            do {
                let result = try await body(control)
                await teardown()
                return result
            } catch {
                await teardown()
                throw error
            }
        }
    }

    /// A fresh session (a UUID) on the daemon `STUBD_URL` names, after checking that it answers and
    /// serves the same folder as `stubs`; nil when `STUBD_URL` is not set. The teardown resets it and
    /// every session the test took through it (`session(_:)`), so none keeps its state into the next run. Its admin calls carry
    /// `adminToken`, or else `STUBD_ADMIN_TOKEN` from `environment`.
    public static func startRemote(stubs: URL, environment: [String: String] = ProcessInfo.processInfo.environment,
                                   adminToken: String? = nil) async throws -> Started? {
        guard let text = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let daemon = StubdClient(baseURL: try daemonURL(text), adminToken: adminToken ?? environment["STUBD_ADMIN_TOKEN"])
        try checkServesSameFolder(try await daemon.health(), stubs: stubs, daemon: daemon.baseURL)
        let id = UUID().uuidString
        let session = FixtureSessions(daemon.sessionClient(id))
        return Started(control: session,
                       teardown: { await session.resetAll() },
                       description: "session \(id) on \(daemon.baseURL.absoluteString) (\(environmentVariable))")
    }

    /// Throws `StubdError.otherFolder` unless the daemon's folder has the fingerprint of `stubs`:
    /// against another folder the tests would fail with 404s that say nothing of the cause.
    /// Where the test's folder cannot be read (a test bundle on a device, which has no access to
    /// the Mac's disk) there is nothing to compare, and the check is skipped.
    public static func checkServesSameFolder(_ health: HealthReport, stubs: URL, daemon: URL) throws {
        guard let served = health.stubs else {
            throw StubdError.otherFolder(daemon: daemon.absoluteString, served: "an unknown folder (stubd \(health.version) reports no fingerprint; update it)",
                                         expected: stubs.path, expectedFingerprint: "")
        }
        guard let local = StubsFingerprint.of(folder: stubs) else {
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            return
            #else
            throw StubdError.badConfiguration("the test's stubs folder \(stubs.path) does not exist or cannot be read, so it cannot be compared with the folder \(daemon.absoluteString) (\(environmentVariable)) serves, \(served.folder)")
            #endif
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
        let report = try await control.unmatchedReport()
        let message = StubdError.hitMessage(route: route, expected: expected, actual: actual,
                                            unmatched: report.count, nearest: report.nearest)
        guard actual > expected, let fault = try? await droppedConnection(control, route) else { return message }
        return message + " (" + fault + ")"
    }

    /// For a route whose answer drops the connection (named by its name or signature), why it may have
    /// more hits than calls: URLSession sends a GET again by itself when a connection it reused is
    /// reset or closed before the answer (measured against a shared daemon: 2 hits in 3 of 4 runs,
    /// issue 62 item 3). Nil for any other route.
    static func droppedConnection(_ control: any StubControl, _ route: String) async throws -> String? {
        let routes = try await control.adminClient.routes().routes
        guard let described = routes.first(where: { $0.name == route || $0.signature == route }), described.dropsConnection else { return nil }
        return "its answer is \(described.faults?.joined(separator: ", ") ?? "a fault"): URLSession retries a GET once when a reused "
            + "connection is dropped, so one call can count 2 hits; assert at least the calls made, or see docs/stubs-folder.md#faults-and-what-urlsession-on-linux-reports"
    }
}

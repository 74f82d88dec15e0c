public import Foundation
public import StubdClient

extension StubFixture {
    /// An in-process `StubServer` on 127.0.0.1 with a free port or, when `STUBD_URL` is set, a fresh
    /// session (a UUID) on the daemon it names, after checking that `/__stubd/health` answers and
    /// that the daemon serves the same folder as `stubs` (same files, same bytes).
    ///
    /// Throws `CatalogLoadError` (every problem in `stubs`), `StubdError.badConfiguration` when
    /// `STUBD_URL` is not an http URL, `StubdError.unreachable` naming the URL when nothing answers,
    /// or `StubdError.otherFolder` naming both folders when the daemon serves another one.
    public static func start(stubs: URL,
                             environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> Started {
        if let remote = try await startRemote(stubs: stubs, environment: environment) { return remote }
        return Started(try await StubServer.start(stubs: stubs))
    }
}

extension StubFixture.Started {
    /// `server`, stopped by the teardown.
    package init(_ server: StubServer) {
        self.init(control: server, teardown: { await server.stop() }, description: "in-process at \(server.baseURL.absoluteString)")
    }
}

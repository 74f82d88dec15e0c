import Foundation
#if InProcessServer && canImport(Stubd)
import Stubd
#endif
import StubdClient
import StubdInProcess

// One file in two modules: StubdTesting's, symlinked into StubdXCTest. Each links Stubd only with
// the InProcessServer trait and only where libmicrohttpd runs, and no module they both import may
// see Stubd (StubdClient builds in an iOS test bundle), so the choice is compiled in each of them
// from this one text instead of written out in each.
extension StubFixture {
    /// What `withStubServer` and `startStubServer` start: a session on the daemon at `STUBD_URL` when
    /// it is set; else, where this module links Stubd, an in-process `StubServer` (its `baseURL` a
    /// socket on 127.0.0.1, its `urlSession` the same engine without one); else the engine alone,
    /// without a socket (an iOS test bundle, or a package that turned the InProcessServer trait off).
    static func startWhereItRuns(stubs: URL) async throws -> Started {
        #if InProcessServer && canImport(Stubd)
        return try await start(stubs: stubs)
        #else
        if let remote = try await startRemote(stubs: stubs) { return remote }
        return try startWithoutSocket(stubs: stubs)
        #endif
    }
}

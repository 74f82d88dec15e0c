import Foundation
#if canImport(Stubd) && !STUBD_REMOTE_ONLY
import Stubd
#endif
import StubdClient

// One file in four modules: StubdTesting's, symlinked into StubdXCTest and both …Remote twins.
// Each links Stubd only where it runs, and no module they both import may see Stubd (StubdClient
// builds in an iOS test bundle), so the choice between an in-process server and a remote session
// is compiled in each of them from this one text instead of written out in each.
extension StubFixture {
    /// An in-process `StubServer` where this module links Stubd, else a session on the daemon at
    /// `STUBD_URL` (failing, saying what to run, without it): what `withStubServer` and
    /// `startStubServer` start.
    static func startWhereItRuns(stubs: URL) async throws -> Started {
        #if canImport(Stubd) && !STUBD_REMOTE_ONLY
        return try await start(stubs: stubs)
        #else
        return try await startRemoteOnly(stubs: stubs)
        #endif
    }
}

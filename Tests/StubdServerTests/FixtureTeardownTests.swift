import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

/// Issue 62 item 2: against a daemon, the sessions a test took through its fixture die with it.
@Suite struct FixtureTeardownTests {
    @Test func everySessionHandedOutIsResetWhenTheFixtureTearsDown() async throws {
        let stubs = try TempStubs(["ok.json": "{}"])
        let daemon = try await StubServer.start(stubs: stubs.url)
        defer { daemon.stopSynchronously() }
        let environment = ["STUBD_URL": daemon.baseURL.absoluteString]
        let named = "s1-\(UUID().uuidString)"
        for run in 1...2 {
            let started = try #require(try await StubFixture.startRemote(stubs: stubs.url, environment: environment))
            let s1 = started.control.session(named)
            let nested = s1.session("\(named)-inner")
            _ = try await s1.urlSession.data(from: s1.baseURL.appendingPathComponent("ok.json"))
            _ = try await nested.urlSession.data(from: nested.baseURL.appendingPathComponent("ok.json"))
            #expect(try await s1.hits("GET /ok.json") == 1, "run \(run): \(named) starts from nothing")
            #expect(try await nested.hits("GET /ok.json") == 1, "run \(run): a session taken through a session too")
            await started.teardown()
        }
        #expect(try await StubdClient(baseURL: daemon.baseURL).session(named).hits("GET /ok.json") == 0)
    }
}

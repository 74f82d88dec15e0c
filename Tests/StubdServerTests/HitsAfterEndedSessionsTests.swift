import Foundation
import Stubd
import StubdClient
import StubdTestSupport
import Testing

/// Issue 45 item 6: after a test run on `STUBD_URL`, `stubd hits` showed only zeros, because each
/// test's session is reset at teardown and the table is the default session's.
@Suite struct HitsAfterEndedSessionsTests {
    @Test func hitsSaysWhereTheHitsWentWhenEveryTestsSessionHasEnded() async throws {
        let stubs = try TempStubs(["weather.json": #"{"temp": 21}"#])
        try await withServer(stubs.url) { server in
            // What the helpers do per test: requests in a session of its own, then a reset at teardown.
            for session in ["test-1", "test-2"] {
                _ = try await get(server.baseURL, "/weather.json", headers: ["X-Stubd-Session": session])
                try await StubdClient(baseURL: server.baseURL).sessionClient(session).reset()
            }
            let r = try run(stubdBinary.path, ["hits", "--url", server.baseURL.absoluteString])
            #expect(r.status == 0, "\(r.error)")
            #expect(r.output.contains("GET /weather.json  0"), "\(r.output)")
            #expect(r.output.contains("These are the default session's hits; 2 hits went to other sessions."), "\(r.output)")
            #expect(r.output.contains("`stubd coverage` counts every session since start"), "\(r.output)")

            // A hit in the default session: the table speaks for itself, no note.
            _ = try await get(server.baseURL, "/weather.json")
            let again = try run(stubdBinary.path, ["hits", "--url", server.baseURL.absoluteString]).output
            #expect(!again.contains("other sessions"), "\(again)")
        }
    }
}

import Foundation
import Stubd
import StubdClient
import StubdTestSupport
import Testing

/// A token given in code, not through STUBD_ADMIN_TOKEN, reaches every helper's admin calls
/// (issue 25 item 7): `HitGenerations` and the hit assertions' failure text made a client of their
/// own from the URL alone, which carried only the environment's token, and failed with 401.
@Suite(.serialized) struct AdminTokenInCodeTests {
    static let stubs = ["ok.json": #"{"ok":true}"#]

    @Test func theInProcessServersTokenReachesHitGenerationsAndHitMismatch() async throws {
        let stubs = try TempStubs(Self.stubs)
        var options = StubServer.Options()
        options.adminToken = "in-code-\(UUID().uuidString)"
        try await withServer(stubs.url, options: options) { server in
            let generations = HitGenerations(server)
            for _ in 0..<4 {
                _ = try await get(server.baseURL, "/ok.json")
                try await generations.mark()
            }
            #expect(generations.isStable, "\(generations.report)")
            let message = try await StubFixture.hitMismatch(server, "GET /ok.json", expected: 99)
            #expect(message?.hasPrefix("Expected 99 hits on GET /ok.json, but was 4") == true, "\(message ?? "nil")")
        }
    }

    @Test func aClientsTokenReachesEveryHelperBeyondLoopback() async throws {
        let stubs = try TempStubs(Self.stubs)
        let token = "in-code-\(UUID().uuidString)"
        var options = StubServer.Options()
        options.adminToken = token
        let server = try await StubServer.start(stubs: stubs.url, host: "0.0.0.0", port: 0, options: options)
        defer { server.stopSynchronously() }
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        let environment = ["STUBD_URL": url.absoluteString]   // no STUBD_ADMIN_TOKEN in it

        let started = try #require(try await StubFixture.startRemote(stubs: stubs.url, environment: environment, adminToken: token))
        let session = started.control
        _ = try await get(session.baseURL, "/ok.json")
        #expect(try await session.hits("GET /ok.json") == 1)
        let generations = HitGenerations(session)
        try await generations.mark()
        #expect(generations.generations.first?["GET /ok.json"] == 1)
        let message = try await StubFixture.hitMismatch(session, "GET /ok.json", expected: 2)
        #expect(message?.hasPrefix("Expected 2 hits on GET /ok.json, but was 1") == true, "\(message ?? "nil")")
        await started.teardown()
        #expect(try await session.hits("GET /ok.json") == 0, "teardown resets the session with the token too")

        // Without the token the same daemon refuses, so the calls above really needed it.
        await #expect(throws: StubdError.self) {
            try await StubdClient(baseURL: url, adminToken: nil).allHits()
        }
    }
}

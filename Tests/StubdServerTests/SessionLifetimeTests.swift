import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

@Suite struct SessionLifetimeTests {
    @Test func resettingANamedSessionDropsIt() async throws {
        try await withServer(plainStubs) { server in
            _ = try await get(server.session("t1").baseURL, "/plain/payload.json")
            _ = try await get(server.session("t2").baseURL, "/plain/payload.json")
            #expect(server.engine.sessionCount == 2)
            try await server.session("t1").reset()
            #expect(server.engine.sessionCount == 1)
            #expect(try await server.session("t2").hits("GET /plain/payload.json") == 1)
        }
    }
}

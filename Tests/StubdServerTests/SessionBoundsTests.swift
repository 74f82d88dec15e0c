import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdProtocol
import StubdTestSupport
import Synchronization
import Testing

/// Any request naming a new session makes one (issue 11): they must be cheap, bounded and checked.
/// Here what needs a server: the id checked where the request names it, the memory of 3,000 sessions.
/// The cap's eviction, with no socket: SessionCapTests in StubdCoreTests.
@Suite(.serialized) struct SessionBoundsTests {
    @Test(arguments: ["../../etc%20passwd%0A", "a%20b", String(repeating: "x", count: 65)])
    func aBadSessionIdIsRefusedWhateverCarriesIt(id: String) async throws {
        try await withServer(plainStubs) { server in
            let viaQuery = try await get(server.baseURL, "/__stubd/health?session=\(id)")
            #expect(viaQuery.status == 400, "?session=\(id) → \(viaQuery.status)")
            #expect(viaQuery.text.contains("a session id is 1–64 letters"))
            let viaPrefix = try await get(server.baseURL, "/__s/\(id)/plain/payload.json")
            #expect((400..<500).contains(viaPrefix.status))
            #expect(server.engine.sessionCount == 0)
        }
    }

    /// 3,000 sessions, each made by one request, cost little; a global reset drops them all.
    @Test func threeThousandSessionsCostLittle() async throws {
        var options = StubServer.Options()
        options.maxSessions = 5000
        try await withServer(plainStubs, options: options) { server in
            _ = try await get(server.baseURL, "/plain/payload.json", headers: ["X-Stubd-Session": "warm"])
            let before = residentBytes()
            for i in 0..<3000 {
                _ = try await get(server.baseURL, "/plain/payload.json", headers: ["X-Stubd-Session": "s\(i)"])
            }
            let grown = residentBytes() - before
            #expect(server.engine.sessionCount == 3001)
            #expect(Double(grown) < bound(100) * Double(1 << 20), "3,000 sessions grew RSS by \(grown >> 20) MB")
            print("3,000 sessions: RSS +\(grown >> 20) MB")
            let reset = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/reset")!, method: "POST")
            #expect(reset.status == 200)
            #expect(server.engine.sessionCount == 0)
        }
    }
}

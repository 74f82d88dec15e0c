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

    @Test func sessionsPastTheCapEvictTheOneUnusedLongest() async throws {
        let notices = Locked<[String]>([])
        var options = StubServer.Options()
        options.maxSessions = 20
        options.notice = { message in notices.withLock { $0.append(message) } }
        try await withServer(plainStubs, options: options) { server in
            for i in 0..<50 {
                let r = try await get(server.baseURL, "/plain/payload.json", headers: ["X-Stubd-Session": "t\(i)"])
                #expect(r.status == 200)
                // t0 stays in use, so it is never the one evicted.
                _ = try await get(server.baseURL, "/__stubd/hits?session=t0")
            }
            #expect(server.engine.sessionCount == 20)
            let kept = try await get(server.baseURL, "/__stubd/hits?session=t0&route=GET%20/plain/payload.json")
            #expect(kept.text.contains("\"hits\":1"), "\(kept.text)")
            let messages = notices.withLock { $0 }
            #expect(messages.count == 30)
            #expect(messages.first?.contains("session 't1' evicted") == true, "\(messages.first ?? "")")
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

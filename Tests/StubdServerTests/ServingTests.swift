import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Testing

/// What the wire carries of a served stub: URLSession, HEAD, keep-alive. The answers themselves (matching,
/// misses, 405, the journal, health) are ServedAnswerTests', in StubdCoreTests, through the engine.
@Suite struct ServingTests {
    @Test func servesTheExampleConditionsThroughURLSession() async throws {
        try await withServer(exampleStubs) { server in
            #expect(server.baseURL.absoluteString.hasPrefix("http://127.0.0.1:"))
            #expect(server.port != 0)
            let r = try await get(server.baseURL, "/api/KEY/conditions/q/CA/San_Francisco.json")
            #expect(r.status == 200)
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            #expect(r.header("Access-Control-Allow-Origin") == "*")
            let observation = try #require(r.json["current_observation"] as? [String: Any])
            #expect((observation["temp_f"] as? NSNumber)?.doubleValue == 76.5)
            // Without the extension, too.
            #expect(try await get(server.baseURL, "/api/KEY/conditions/q/CA/San_Francisco").status == 200)
        }
    }

    @Test func headIsAnsweredWithoutABody() throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        let r = try curl(["-I", server.baseURL.absoluteString + "/plain/payload.json", "-o", "/dev/null", "-w", "%{http_code} %{size_download}"])
        #expect(r.output == "200 0")
    }

    /// Without TCP_NODELAY, libcurl's keep-alive requests each wait ~40 ms for a delayed ACK
    /// (20 requests took 0.84 s when measured); with it, well under a millisecond each.
    @Test func sequentialKeepAliveRequestsDoNotStall() async throws {
        try await withServer(plainStubs) { server in
            let session = URLSession(configuration: .ephemeral)
            let url = URL(string: server.baseURL.absoluteString + "/plain/payload.json")!
            _ = try await http(url, session: session)
            let start = Date()
            for _ in 0..<20 { #expect(try await http(url, session: session).status == 200) }
            #expect(Date().timeIntervalSince(start) < 0.4, "20 keep-alive requests took \(Date().timeIntervalSince(start)) s")
        }
    }

    @Test func keepAliveReallyKeepsAlive() throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        let url = server.baseURL.absoluteString + "/plain/payload.json"
        let r = try curl(["-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{num_connects}\n", url, url, url])
        #expect(r.output.split(separator: "\n") == ["1", "0", "0"])
    }
}

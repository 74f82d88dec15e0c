import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Testing

/// Requests that once crashed, froze or exhausted the server (issue 11). Each must get a 4xx
/// naming what was wrong, and the server must go on serving. Here the head libmicrohttpd reads; the
/// admin calls and manifests the engine reads, with no socket: HardeningAnswerTests in StubdCoreTests.
@Suite struct HardeningTests {
    @Test func aHugeContentLengthGetsTheEarly413() throws {
        let server = try StubServer(stubs: exampleStubs)
        defer { server.stopSynchronously() }
        for length in ["9223372036854775808", "99999999999999999999999"] {
            let reply = rawExchange(port: server.port, Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\nabc".utf8))
            #expect(reply.hasPrefix("HTTP/1.1 413"), "Content-Length \(length) → \(reply.prefix(60))")
        }
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/__stubd/health"]).output == "200")
    }
}

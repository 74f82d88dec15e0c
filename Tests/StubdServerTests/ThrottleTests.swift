import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

@Suite struct ThrottleTests {
    /// 4 KB at 8 KB/s: about half a second, and the body arrives whole.
    @Test func aThrottledBodyArrivesWholeAtTheGivenRate() async throws {
        let body = String(repeating: "0123456789abcdef", count: 256)
        let stubs = try TempStubs(["big.txt": body, "stubd.yml": """
            routes:
              - { request: { path: /slow.txt }, response: { file: big.txt, throttle: { bytes_per_second: 8192 } } }
            """])
        try await withServer(stubs.url) { server in
            let start = Date()
            let r = try await get(server.baseURL, "/slow.txt")
            let elapsed = Date().timeIntervalSince(start)
            #expect(r.text == body)
            #expect(elapsed > 0.35 && elapsed < 1.5, "4096 bytes at 8192 B/s took \(elapsed) s")
            #expect(try await get(server.baseURL, "/big.txt").text == body)
        }
    }

    @Test func stopDuringADribbleIsQuick() async throws {
        let stubs = try TempStubs(["big.txt": String(repeating: "x", count: 100_000), "stubd.yml": """
            routes:
              - { name: slow, request: { path: /slow.txt }, response: { file: big.txt, throttle: { bytes_per_second: 1000 } } }
            """])
        let server = try await StubServer.start(stubs: stubs.url)
        let url = URL(string: server.baseURL.absoluteString + "/slow.txt")!
        let pending = Task { try? await http(url) }
        _ = try await server.waitForHits("slow", count: 1, timeout: .seconds(2))
        let start = Date()
        await server.stop()
        #expect(Date().timeIntervalSince(start) < 1)
        _ = await pending.value
    }
}

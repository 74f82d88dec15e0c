import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

let behaviourStubs: [String: String] = [
    "ok.json": #"{"ok": true}"#,
    "stubd.yml": """
    routes:
      - { name: slow, request: { path: /slow }, response: { json: { slow: true }, delay: 200ms } }
      - { name: hang, request: { path: /hang }, response: { fault: hang } }
      - { name: reset, request: { path: /reset }, response: { fault: connection_reset } }
      - { name: empty, request: { path: /empty }, response: { fault: empty_response } }
      - { name: truncated, request: { path: /truncated }, response: { file: ok.json, fault: truncated_body } }
      - { name: malformed, request: { path: /malformed }, response: { file: ok.json, fault: malformed_json } }
      - name: jitter
        request: { path: /jitter }
        response: { status: 204, delay: { uniform: [10ms, 30ms] } }
      - name: retry
        request: { path: /retry }
        responses: [{ status: 503, delay: 20ms }, { status: 503 }, { file: ok.json }]
    """,
]

@Suite struct DelayTests {
    /// 200 connections each waiting 200 ms, on two worker threads: suspended, not sleeping.
    @Test func delayedAnswersHoldNoWorkerThread() async throws {
        try await withServer(try TempStubs(behaviourStubs).url) { server in
            let url = URL(string: server.baseURL.absoluteString + "/slow")!
            let start = Date()
            async let slow: [Int] = withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 { group.addTask { try await http(url).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try await Task.sleep(for: .milliseconds(60))
            let plainStart = Date()
            #expect(try await get(server.baseURL, "/ok.json").status == 200)
            let plain = Date().timeIntervalSince(plainStart)
            let statuses = try await slow
            let wall = Date().timeIntervalSince(start)
            #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 })
            #expect(wall >= 0.2)
            // Held worker threads would take 200 × 0.2 s / 2 threads = 20 s; 2 s leaves room for a busy machine.
            #expect(wall < bound(2), "200 delayed answers took \(wall) s")
            // A held worker would make it wait out a 200 ms delay; 150 ms leaves room for a busy machine (CI saw 57 ms).
            #expect(plain < bound(0.15), "a plain route took \(plain) s while 200 answers were delayed")
        }
    }

    @Test func aSequenceWithDelaysServesFailTwiceThenSucceed() async throws {
        try await withServer(try TempStubs(behaviourStubs).url) { server in
            let statuses = try await (0..<4).asyncMap { _ in try await get(server.baseURL, "/retry").status }
            #expect(statuses == [503, 503, 200, 200])
            let jitter = Date()
            #expect(try await get(server.baseURL, "/jitter").status == 204)
            #expect(Date().timeIntervalSince(jitter) >= 0.01)
        }
    }

    @Test func stopWithDelayedAndHangingAnswersPendingIsQuick() async throws {
        let server = try await StubServer.start(stubs: try TempStubs(behaviourStubs).url)
        let base = server.baseURL.absoluteString
        let pending = Task {
            await withTaskGroup(of: Void.self) { group in
                for path in ["/hang", "/hang", "/slow", "/slow"] { group.addTask { _ = try? await http(URL(string: base + path)!) } }
            }
        }
        _ = try await server.waitForHits("slow", count: 2, timeout: .seconds(2))
        _ = try await server.waitForHits("hang", count: 2, timeout: .seconds(2))
        let start = Date()
        await server.stop()
        #expect(Date().timeIntervalSince(start) < 1)
        await pending.value
    }
}

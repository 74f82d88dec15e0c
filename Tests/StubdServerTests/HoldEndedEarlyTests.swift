import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdProtocol
import StubdTestSupport
import StubdClient
import Testing

/// What a request whose answer is still being made (a forward waiting for the real API, a template
/// rendering off the worker) gets when `stop()` ends its hold: the 503 a stopping server sends, at
/// once. Before, a stopped forward went out to the real API again, and a stopped render was rendered
/// again on the worker, which `stop()` then waited for. Over real sockets.
@Suite(.serialized) struct HoldEndedEarlyTests {
    @Test func aForwardStoppedWhileTheRealAPIThinksIsAnsweredStoppingAndNotSentAgain() async throws {
        let arrivals = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-arrivals-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: arrivals) }
        // The real API notes each request, then takes three seconds to answer.
        let upstream = try PythonUpstream(doGET: """
            with open("\(arrivals.path)", "a") as f: f.write(self.path + "\\n")
            __import__("time").sleep(3)
            self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
            """)
        let server = try await StubServer.start(stubs: try TempStubs([:]).url, options: .forwarding(to: upstream.url))
        let answer = Task { try await get(server.baseURL, "/slow") }
        let forwarded = await eventually(within: bound(10)) { ((try? String(contentsOf: arrivals, encoding: .utf8)) ?? "").contains("/slow") }
        #expect(forwarded, "the request never reached the real API")
        await server.stop()
        let r = try await answer.value
        #expect(r.status == 503, "\(r.status) \(r.text)")
        #expect(r.text.contains("Stopping"), "\(r.text)")
        // Past the real API's three seconds: had the request gone out again, it would show by now.
        try await Task.sleep(for: .milliseconds(500))
        #expect(try String(contentsOf: arrivals, encoding: .utf8) == "/slow\n")
    }

    @Test func aRenderStoppedHalfwayIsAnsweredStoppingNotRenderedAgain() async throws {
        var options = StubServer.Options()
        options.threads = 1
        options.maxRenderedBytes = 1 << 30
        let stubs = try TempStubs(["stubd.yml": TemplateHardeningTests.list])
        let server = try await StubServer.start(stubs: stubs.url, options: options)
        let size = try await HoldEndedEarlyTests.renderSize(server, seconds: 3)
        let url = URL(string: server.baseURL.absoluteString + "/silent")!
        let heavy = Task { try await http(url, method: "POST", body: TemplateHardeningTests.numbers(size), session: TemplateHardeningTests.patient) }
        // The hit is counted when the request is matched, before the render starts off the worker.
        let matched = try await eventually(within: bound(10)) { try await server.hits("POST /silent") == 2 }
        #expect(matched, "the heavy request never arrived")
        let stopping = Date()
        await server.stop()
        let r = try await heavy.value
        let stopped = Date().timeIntervalSince(stopping)
        #expect(r.status == 503, "\(r.status) \(r.text.prefix(200))")
        #expect(r.text.contains("Stopping"), "\(r.text.prefix(200))")
        // Rendered again on the worker, stop() waited for a second render of about three seconds.
        #expect(stopped < 2, "stop() took \(stopped) s")
    }

    /// The element count whose `/silent` render (n³ loops) takes about `seconds` on this machine,
    /// from a 60³ probe: a fixed n would make the tests' premise depend on the machine's speed.
    static func renderSize(_ server: StubServer, seconds: Double) async throws -> Int {
        let probeSize = 60
        let url = URL(string: server.baseURL.absoluteString + "/silent")!
        let started = Date()
        let probe = try await http(url, method: "POST", body: TemplateHardeningTests.numbers(probeSize), session: TemplateHardeningTests.patient)
        #expect(probe.status == 200)
        let probeSeconds = max(Date().timeIntervalSince(started), 0.001)
        return min(1_000, max(probeSize, Int(Double(probeSize) * cbrt(seconds / probeSeconds))))
    }
}

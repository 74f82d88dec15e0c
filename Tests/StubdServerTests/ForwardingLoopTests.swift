import Foundation
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// stubd never forwards to itself (issue 38, item 3): an environment proxy is ignored unless
/// `--upstream-proxy` names one, a target or pass-through host that is stubd's own address in any
/// spelling gets a 508 naming the loop, and so does a request or an answer carrying its own `Via`.
@Suite(.serialized) struct ForwardingLoopTests {
    /// The "real API": answers with the `Via` it was sent; `/mirror` also sends it back as its own `Via`.
    static let upstreamGET = """
    via = self.headers.get("Via", "")
    body = ("real host saw " + self.path + " via " + via).encode()
    self.send_response(200)
    if self.path == "/mirror": self.send_header("Via", via)
    self.send_header("Content-Length", str(len(body)))
    self.end_headers()
    self.wfile.write(body)
    """

    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [RequestLogLine] = []
        func add(_ line: RequestLogLine) { lock.withLock { lines.append(line) } }
        var all: [RequestLogLine] { lock.withLock { lines } }
    }

    @Test(arguments: ["127.0.0.1", "0.0.0.0", "[::ffff:127.0.0.1]", "2130706433", "localhost"])
    func aRecorderWhoseTargetIsItselfAnswers508AndRecordsNothing(spelling: String) async throws {
        let folder = try TempStubs([:]).url
        let port = freeLoopbackPort()
        let lines = Lines()
        var options = try StubServer.Options.forwarding(to: URL(string: "http://\(spelling):\(port)")!, recordingInto: folder) { $0.timeoutSeconds = 3 }
        // Small, so the loop (before the fix) fills it at once instead of after ~1,000 hops.
        options.maxConnections = 16
        options.requestLog = { lines.add($0) }
        let server = try StubServer(stubs: folder, port: port, options: options)
        defer { server.stopSynchronously() }
        let r = try curl(["-w", "\n%{http_code}", server.baseURL.absoluteString + "/weather"])
        #expect(r.output.hasSuffix("\n508"), "\(r.output)")
        #expect(r.output.contains("Forwarding loop") && r.output.contains("where this stubd listens"), "\(r.output)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("stubd.recorded.yml").path), "its own answer was recorded")
        #expect(await eventually { lines.all.contains { $0.path == "/weather" && $0.status == 508 } }, "\(lines.all.map(\.status))")
    }

    @Test func environmentProxiesAreIgnoredUnlessUpstreamProxyNamesOne() async throws {
        let real = try PythonUpstream(doGET: Self.upstreamGET)
        let stubs = try TempStubs(["ok.json": "{}"])
        let port = freeLoopbackPort()
        let own = "http://127.0.0.1:\(port)"
        // Every proxy variable libcurl reads names stubd itself.
        let serve = try ServeProcess(["--stubs", stubs.url.path, "--port", "\(port)", "--proxy", real.url.absoluteString, "--timeout", "3"],
                                     environment: ["http_proxy": own, "HTTP_PROXY": own, "https_proxy": own, "ALL_PROXY": own, "all_proxy": own])
        let r = try curl(["-w", "\n%{http_code}", serve.baseURL.absoluteString + "/hello"])
        #expect(r.output.hasPrefix("real host saw /hello via 1.1 stubd-") && r.output.hasSuffix("\n200"), "\(r.output)")
    }

    @Test func aRequestOrAnAnswerCarryingItsOwnViaIsALoop() async throws {
        let real = try PythonUpstream(doGET: Self.upstreamGET)
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: real.url, scope: .misses, recordingInto: folder)
        try await withServer(folder, options: options) { server in
            let first = try await get(server.baseURL, "/first")
            let token = try #require(first.text.split(separator: " ").last.map(String.init))
            #expect(token.hasPrefix("stubd-"), "\(first.text)")
            // Through some other proxy and back: the request still carries the token.
            let again = try await get(server.baseURL, "/again", headers: ["Via": "1.1 other-proxy, 1.1 \(token)"])
            #expect(again.status == 508 && again.text.contains("has passed through this stubd already"), "\(again.status) \(again.text)")
            // An answer carrying it is this server's own, not the API's: refused, not recorded.
            let mirrored = try await get(server.baseURL, "/mirror")
            #expect(mirrored.status == 508 && mirrored.text.contains("came back through this stubd"), "\(mirrored.status) \(mirrored.text)")
            let recorded = (try? String(contentsOf: folder.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)) ?? ""
            #expect(recorded.contains("/first") && !recorded.contains("/mirror") && !recorded.contains("/again"), "\(recorded)")
        }
    }

    @Test func passModeRefusesItsOwnAddressAsAHostInAnySpelling() async throws {
        let lines = Lines()
        var options = StubServer.Options()
        options.passUnknownHosts = true
        options.requestLog = { lines.add($0) }
        try await withServer(exampleStubs, options: options) { server in
            for host in ["[::ffff:127.0.0.1]", "0.0.0.0", "2130706433"] {
                let connect = rawExchange(port: server.port, Array("CONNECT \(host):\(server.port) HTTP/1.1\r\nHost: \(host):\(server.port)\r\n\r\n".utf8))
                #expect(connect.hasPrefix("HTTP/1.1 508") && connect.contains("where this stubd listens"), "\(host): \(connect)")
                // curl writes 2130706433 as 127.0.0.1, one of stubd's own names: that one it stubs.
                guard host != "2130706433" else { continue }
                let plain = try curl(["-x", server.baseURL.absoluteString, "-w", "\n%{http_code}", "http://\(host):\(server.port)/x"])
                #expect(plain.output.hasSuffix("\n508"), "\(host): \(plain.output)")
            }
            #expect(await eventually { lines.all.filter { $0.status == 508 }.count == 5 }, "\(lines.all.map { "\($0.method) \($0.path) \($0.status)" })")
        }
    }

    @Test func anUpstreamProxyCarriesForwardsAndTunnelsButNeverToItself() async throws {
        let real = try PythonUpstream(doGET: Self.upstreamGET)
        let target = "http://[::ffff:127.0.0.1]:\(real.port)"
        var proxyOptions = StubServer.Options()
        proxyOptions.passUnknownHosts = true
        let proxyLines = Lines()
        proxyOptions.requestLog = { proxyLines.add($0) }
        try await withServer(exampleStubs, options: proxyOptions) { proxy in
            var options = StubServer.Options()
            options.passUnknownHosts = true
            options.upstream.proxy = proxy.baseURL
            try await withServer(exampleStubs, options: options) { server in
                let plain = try curl(["-x", server.baseURL.absoluteString, "\(target)/plain"])
                #expect(plain.output.hasPrefix("real host saw /plain via 1.1 stubd-"), "\(plain.output)")
                let tunnelled = try curl(["-p", "-x", server.baseURL.absoluteString, "\(target)/tunnelled"])
                #expect(tunnelled.output.hasPrefix("real host saw /tunnelled"), "\(tunnelled.output)")
                #expect(await eventually { proxyLines.all.contains { $0.method == "CONNECT" && $0.status == 200 }
                    && proxyLines.all.contains { $0.path.hasSuffix("/plain") } }, "\(proxyLines.all.map { "\($0.method) \($0.path) \($0.status)" })")
            }
        }
        // A server whose upstream proxy is itself.
        let port = freeLoopbackPort()
        var options = StubServer.Options()
        options.passUnknownHosts = true
        options.upstream.proxy = URL(string: "http://localhost:\(port)")!
        let server = try StubServer(stubs: exampleStubs, port: port, options: options)
        defer { server.stopSynchronously() }
        let plain = try curl(["-x", server.baseURL.absoluteString, "-w", "\n%{http_code}", "\(target)/x"])
        #expect(plain.output.hasSuffix("\n508"), "\(plain.output)")
        let connect = rawExchange(port: port, Array("CONNECT [::ffff:127.0.0.1]:\(real.port) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(connect.hasPrefix("HTTP/1.1 508"), "\(connect)")
    }
}

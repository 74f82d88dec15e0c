import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Testing

/// `--proxy-unknown pass` (issue 28): a host the folder does not serve is passed through to the
/// real host, a CONNECT as a blind tunnel and a plain absolute-form request forwarded; the default
/// still refuses it.
@Suite(.serialized) struct ProxyUnknownPassTests {
    /// The "real host", answering any path. Tests reach it as `[::ffff:127.0.0.1]`: loopback, but not
    /// one of the names stubd answers itself (localhost, 127.*, ::1), so a host the folder does not serve.
    static let upstreamGET = """
    body = ("real host saw " + self.path).encode()
    self.send_response(200)
    self.send_header("Content-Type", "text/plain")
    self.send_header("Content-Length", str(len(body)))
    self.end_headers()
    self.wfile.write(body)
    """

    static let host = "[::ffff:127.0.0.1]"

    static func passing() -> StubServer.Options {
        var options = StubServer.Options()
        options.passUnknownHosts = true
        return options
    }

    @Test func aPlainRequestForAnUnknownHostIsForwardedToIt() async throws {
        let real = try PythonUpstream(doGET: Self.upstreamGET)
        try await withServer(exampleStubs, options: Self.passing()) { server in
            let r = try curl(["-x", server.baseURL.absoluteString, "-w", "\n%{http_code}", "http://\(Self.host):\(real.port)/hello?x=1"])
            #expect(r.output == "real host saw /hello?x=1\n200", "\(r.output)")
            // Still stubbed where the folder serves the host.
            let stubbed = try curl(["-x", server.baseURL.absoluteString, "-w", "\n%{http_code}",
                                    server.baseURL.absoluteString + "/api/KEY/conditions/q/CA/San_Francisco.json"])
            #expect(stubbed.output.hasSuffix("\n200") && stubbed.output.contains("San Francisco"), "\(stubbed.output)")
        }
        // Refused by default, as before.
        try await withServer(exampleStubs) { server in
            let r = try curl(["-x", server.baseURL.absoluteString, "-w", "\n%{http_code}", "http://\(Self.host):\(real.port)/hello"])
            #expect(r.output.hasSuffix("\n502") && r.output.contains("Host not stubbed"), "\(r.output)")
        }
    }

    @Test func aCONNECTToAnUnknownHostIsABlindTunnelToIt() async throws {
        let real = try PythonUpstream(doGET: Self.upstreamGET)
        try await withServer(exampleStubs, options: Self.passing()) { server in
            // -p: curl opens a CONNECT tunnel even for http://, and speaks to the real host inside it.
            let r = try curl(["-p", "-x", server.baseURL.absoluteString, "-w", "\n%{http_code}", "http://\(Self.host):\(real.port)/tunnelled"])
            #expect(r.output == "real host saw /tunnelled\n200", "\(r.output)")
            // Several requests through one tunnel, then the server still answers others.
            let two = try curl(["-p", "-x", server.baseURL.absoluteString, "http://\(Self.host):\(real.port)/a", "http://\(Self.host):\(real.port)/b"])
            #expect(two.output == "real host saw /areal host saw /b", "\(two.output)")
            #expect(try await get(server.baseURL, "/__stubd/health").status == 200)
        }
    }

    /// `--timeout` bounds a pass-through as it bounds a forward (issue 38, item 13).
    @Test func aPassThroughHonoursTheTimeout() async throws {
        let slow = try PythonUpstream(script: """
        import http.server, time
        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a): pass
            def do_GET(self):
                time.sleep(10)
        s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """)
        var options = Self.passing()
        options.upstream.passThroughTimeoutSeconds = 1
        try await withServer(exampleStubs, options: options) { server in
            let started = Date()
            let r = try curl(["-x", server.baseURL.absoluteString, "-w", "\n%{http_code}", "http://\(Self.host):\(slow.port)/slow"])
            #expect(r.output.hasSuffix("\n504") && r.output.contains("within 1 s"), "\(r.output)")
            #expect(Date().timeIntervalSince(started) < bound(3), "took \(Date().timeIntervalSince(started)) s")
        }
    }

    @Test func aTunnelToAPortNothingListensOnIsA502NamingTheHost() async throws {
        try await withServer(exampleStubs, options: Self.passing()) { server in
            let raw = rawExchange(port: server.port, Array("CONNECT [::ffff:127.0.0.1]:1 HTTP/1.1\r\nHost: [::ffff:127.0.0.1]:1\r\n\r\n".utf8))
            #expect(raw.hasPrefix("HTTP/1.1 502"), "\(raw)")
            #expect(raw.contains("could not reach [::ffff:127.0.0.1]:1") && raw.contains("refused"), "\(raw)")
        }
    }
}

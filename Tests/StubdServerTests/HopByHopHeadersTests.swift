import Foundation
import Stubd
import StubdTestSupport
import Testing

/// A forwarded request and its relayed answer leave out what describes one connection (RFC 9110
/// §7.6.1): the hop-by-hop names, and whatever a message's own `Connection` header lists. Before
/// issue 40's item 7 the two directions kept two different lists, neither read `Connection`, and
/// `Proxy-Authorization` (the client's credential for a proxy) went on to the API.
@Suite(.serialized) struct HopByHopHeadersTests {
    /// Echoes the request's header names, and answers with a hop-by-hop header of its own.
    static let upstreamGET = """
    body = ("saw " + ",".join(sorted(k.lower() for k in self.headers.keys()))).encode()
    self.send_response(200)
    self.send_header("Content-Type", "text/plain")
    self.send_header("Connection", "X-Hop-Reply")
    self.send_header("X-Hop-Reply", "for the proxy only")
    self.send_header("Proxy-Authenticate", "Basic realm=upstream")
    self.send_header("X-Kept-Reply", "yes")
    self.send_header("Content-Length", str(len(body)))
    self.end_headers()
    self.wfile.write(body)
    """

    @Test func neitherDirectionPassesOnWhatDescribesOneConnection() async throws {
        let real = try PythonUpstream(doGET: Self.upstreamGET)
        var options = StubServer.Options()
        options.passUnknownHosts = true
        try await withServer(exampleStubs, options: options) { server in
            let r = try curl(["-i", "-x", server.baseURL.absoluteString,
                              "-H", "Connection: X-Hop-Request", "-H", "X-Hop-Request: for the proxy only",
                              "-H", "Proxy-Authorization: Basic c3R1YmQ6c2VjcmV0", "-H", "X-Kept-Request: yes",
                              "http://[::ffff:127.0.0.1]:\(real.port)/headers"])
            let (head, body) = try #require(r.output.range(of: "\r\n\r\n").map {
                (String(r.output[..<$0.lowerBound]).lowercased(), String(r.output[$0.upperBound...]))
            }, "\(r.output)")
            #expect(head.hasPrefix("http/1.1 200"), "\(head)")
            // What reached the API.
            #expect(body.contains("x-kept-request"), "\(body)")
            #expect(!body.contains("x-hop-request"), "\(body)")
            #expect(!body.contains("proxy-authorization"), "\(body)")
            // What came back to the client.
            #expect(head.contains("x-kept-reply: yes"), "\(head)")
            #expect(!head.contains("x-hop-reply"), "\(head)")
            #expect(!head.contains("proxy-authenticate"), "\(head)")
        }
    }
}

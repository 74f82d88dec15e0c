import Foundation
import Stubd
import StubdTestSupport
import Testing

@Suite struct SafetyTests {
    /// Every spelling of "go up a directory": none may return bytes from outside the catalog.
    @Test(arguments: [
        "/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        "/%252e%252e/%252e%252e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/..\\..\\..\\etc\\passwd",
        "/plain/../../../etc/passwd", "//etc/passwd", "/plain/payload.json%00.png", "/%c0%ae%c0%ae/etc/passwd",
        "/api/..;/..;/etc/passwd", "/./././etc/passwd",
    ])
    func noSpellingReadsOutsideTheCatalog(path: String) throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        let r = try curl(["--path-as-is", "-w", "\n%{http_code}", server.baseURL.absoluteString + path])
        #expect(!r.output.contains("root:"), "\(path) leaked /etc/passwd")
        let status = Int(r.output.split(separator: "\n").last ?? "") ?? 0
        #expect((400..<500).contains(status), "\(path) answered \(status)")
        // And the server is still serving.
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/plain/payload.json"]).output == "200")
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET /plain/payload.json HTTP/9.9\r\nHost: x\r\n\r\n",
        "GET /plain/payload.json HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        "GET /plain/payload.json HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        "GET /plain/payload.json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n",
        "GET /plain/payload.json HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n",
        "\u{0}\u{1}\u{2}\u{3}\r\n\r\n",
    ])
    func malformedHTTPGetsA4xxOrAClosedConnection(request: String) throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        let reply = rawExchange(port: server.port, Array(request.utf8))
        if let statusLine = reply.split(separator: "\r\n").first, statusLine.hasPrefix("HTTP/") {
            let code = Int(statusLine.split(separator: " ")[1]) ?? 0
            #expect((400..<600).contains(code) && code != 500, "\(request.debugDescription) → \(statusLine)")
        }
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/plain/payload.json"]).output == "200")
    }

    @Test func hugeHeadersAreRefused() throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        let request = "GET /plain/payload.json HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n"
        let reply = rawExchange(port: server.port, Array(request.utf8))
        #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 4"), "\(reply.prefix(40))")
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/plain/payload.json"]).output == "200")
    }

    /// The per-connection memory is 16 KiB (see `Options.connectionMemoryBytes`): a 12 KB token and a
    /// 6 KB cookie (libmicrohttpd keeps cookies twice) are still answered; a 20 KB header gets 431.
    @Test func largeTokensAndCookiesAreServedAndHugerHeadsGet431() throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        func status(_ header: String) throws -> String {
            try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", header, server.baseURL.absoluteString + "/plain/payload.json"]).output
        }
        #expect(try status("Authorization: Bearer \(String(repeating: "a", count: 12_000))") == "200")
        #expect(try status("Cookie: s=\(String(repeating: "a", count: 6_000))") == "200")
        #expect(try status("Authorization: Bearer \(String(repeating: "a", count: 20_000))") == "431")
    }

    @Test func anOversizedBodyGets413() async throws {
        var options = StubServer.Options()
        options.maxBodyBytes = 1000
        try await withServer(plainStubs, options: options) { server in
            let url = URL(string: server.baseURL.absoluteString + "/plain/payload.json")!
            let r = try await http(url, method: "POST", body: String(repeating: "x", count: 5000))
            #expect(r.status == 413)
            let chunked = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Transfer-Encoding: chunked",
                                    "--data-binary", String(repeating: "y", count: 5000), url.absoluteString])
            #expect(chunked.output == "413")
            #expect(try await get(server.baseURL, "/plain/payload.json").status == 200)
        }
    }

    @Test func aBodyUpToTheLimitIsMatched() async throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - { request: { method: POST, path: /big, body: { contains: "needle" } }, response: { status: 201 } }
            """])
        try await withServer(stubs.url) { server in
            let body = String(repeating: "x", count: 300_000) + "needle"
            let r = try await http(URL(string: server.baseURL.absoluteString + "/big")!, method: "POST", body: body)
            #expect(r.status == 201)
        }
    }
}

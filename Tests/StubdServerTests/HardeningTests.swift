import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Testing

/// Requests that once crashed, froze or exhausted the server (issue 11). Each must get a 4xx
/// naming what was wrong, and the server must go on serving.
@Suite struct HardeningTests {
    static let manifest = """
        routes:
          - name: echo
            request: { method: POST, path: /echo, body: { json: { units: metric } } }
            response: { json: { ok: true } }
        quotas:
          - name: daily
            routes: ["POST /echo"]
            limits: ["500/day"]
        """

    @Test(arguments: [
        ("POST", "/__stubd/clock/advance", #"{"seconds": 1, "note": "\uD800\u0041"}"#, nil),
        ("POST", "/__stubd/stubs", #"{"request": {"path": "/x\uD800\u0041"}, "response": {"status": 200}}"#, nil),
        ("POST", "/echo", #"{"units": "\uD810\uD810"}"#, nil),
        ("POST", "/echo", #"{"units": "\uDC00"}"#, nil),
        ("POST", "/__stubd/clock/advance", #"{"seconds": 1e17}"#, "seconds"),
        ("POST", "/__stubd/clock/advance", #"{"seconds": 1e999}"#, nil),
        ("POST", "/__stubd/clock/set", #"{"time": "10000-01-01T00:00:00Z"}"#, nil),
        ("PUT", "/__stubd/quotas/daily", #"{"key": "K", "used": {"day": 1e19}}"#, "from 0 to"),
        ("PUT", "/__stubd/quotas/daily", #"{"key": "K", "used": {"day": 9.3e18}}"#, "from 0 to"),
        ("POST", "/__stubd/stubs", #"{"request": {"path": "/n"}, "response": {"json": {"x": 1e999}}}"#, "finite"),
        ("POST", "/__stubd/stubs", "request: {path: /n}\nresponse: {json: {x: .nan}}", "finite"),
        ("POST", "/__stubd/stubs", "request: {path: /n}\nresponse: {json: {x: .inf}}", "finite"),
    ] as [(String, String, String, String?)])
    func aBadNumberOrStringIsA4xxAndTheServerGoesOn(method: String, path: String, body: String, words: String?) async throws {
        let stubs = try TempStubs(["stubd.yml": HardeningTests.manifest])
        try await withServer(stubs.url) { server in
            let r = try await http(URL(string: server.baseURL.absoluteString + path)!, method: method, body: body)
            #expect((400..<500).contains(r.status), "\(method) \(path) \(body) → \(r.status) \(r.text)")
            if let words { #expect(r.text.contains(words), "\(r.text)") }
            let health = try await get(server.baseURL, "/__stubd/health")
            #expect(health.status == 200)
        }
    }

    /// A count is read as the integer it is: before, 9007199254740993 went through a Double and the
    /// refusal echoed …992, a number the client never sent (issue 38).
    @Test func aQuotaFillIsReadAndEchoedExactly() async throws {
        let stubs = try TempStubs(["stubd.yml": HardeningTests.manifest])
        try await withServer(stubs.url) { server in
            let fill = URL(string: server.baseURL.absoluteString + "/__stubd/quotas/daily")!
            let huge = try await http(fill, method: "PUT", body: #"{"key": "K", "used": {"day": 9007199254740993}}"#)
            #expect(huge.status == 400)
            #expect(huge.text.contains("used.day must be a whole number from 0 to 1000000000000000, got 9007199254740993"), "\(huge.text)")
            let half = try await http(fill, method: "PUT", body: #"{"key": "K", "used": {"day": 2.5}}"#)
            #expect(half.text.contains("got 2.5"), "\(half.text)")
            let fine = try await http(fill, method: "PUT", body: #"{"key": "K", "used": {"day": 499}}"#)
            #expect(fine.status == 200, "\(fine.text)")
            #expect(fine.text.contains(#""used":499"#), "\(fine.text)")
        }
    }

    /// The clock may be moved twice by 9.2e9 seconds only as far as 9999-12-31; the second move is refused whole.
    @Test func clockMovesThatAddUpPastTheRangeAreRefused() async throws {
        let stubs = try TempStubs(["stubd.yml": HardeningTests.manifest])
        try await withServer(stubs.url) { server in
            let advance = URL(string: server.baseURL.absoluteString + "/__stubd/clock/advance")!
            let first = try await http(advance, method: "POST", body: #"{"seconds": 200000000000}"#)
            #expect(first.status == 200)
            let second = try await http(advance, method: "POST", body: #"{"seconds": 200000000000}"#)
            #expect(second.status == 400)
            #expect(second.text.contains("9999-12-31"))
            let clock = try await get(server.baseURL, "/__stubd/clock")
            #expect(clock.text.contains("\"now\":\"8"), "the first move stands, the second moved nothing: \(clock.text)")
        }
    }

    /// 2400 was a trap (nanoseconds past 2262 overflow 64 bits); within 9999 it is simply a time.
    @Test func theClockCanBeSetFarAhead() async throws {
        let stubs = try TempStubs(["stubd.yml": HardeningTests.manifest])
        try await withServer(stubs.url) { server in
            let r = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/clock/set")!, method: "POST",
                                   body: #"{"time": "2400-01-01T00:00:00Z"}"#)
            #expect(r.status == 200)
            #expect(r.text.contains("2400-01-01T00:00:00"))
        }
    }

    @Test func aHugeContentLengthGetsTheEarly413() throws {
        let server = try StubServer(stubs: exampleStubs)
        defer { server.stopSynchronously() }
        for length in ["9223372036854775808", "99999999999999999999999"] {
            let reply = rawExchange(port: server.port, Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\nabc".utf8))
            #expect(reply.hasPrefix("HTTP/1.1 413"), "Content-Length \(length) → \(reply.prefix(60))")
        }
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/__stubd/health"]).output == "200")
    }

    /// 445 bytes of nested aliases would expand to hundreds of megabytes.
    static let aliasBomb = """
        request: {path: /bomb}
        response:
          json:
            a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
            b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
            c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
            d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
            e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
            f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
            g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
            h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
            i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
        """

    @Test func aYAMLAliasBombIsRefusedAtOnce() async throws {
        let stubs = try TempStubs(["stubd.yml": HardeningTests.manifest])
        try await withServer(stubs.url) { server in
            let started = Date()
            let r = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/stubs")!, method: "POST", body: HardeningTests.aliasBomb)
            let elapsed = Date().timeIntervalSince(started)
            #expect(r.status == 400)
            #expect(r.text.contains("anchor &a is not allowed"), "\(r.text)")
            #expect(elapsed < 1, "took \(elapsed) s")
        }
    }

    @Test func aManifestWithAnAliasBombDoesNotLoad() throws {
        let bomb = "routes:\n  - " + HardeningTests.aliasBomb.replacingOccurrences(of: "\n", with: "\n    ")
        let stubs = try TempStubs(["stubd.yml": bomb])
        #expect {
            _ = try StubCatalog.load(stubs: stubs.url)
        } throws: { error in
            "\(error)".contains("stubd.yml:5:") && "\(error)".contains("anchor &a is not allowed")
        }
    }
}

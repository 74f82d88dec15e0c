import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// Admin calls and requests that once crashed, froze or exhausted the server (issue 11): each gets a
/// 4xx naming what was wrong, and the engine goes on answering. What the engine reads of numbers,
/// strings, the clock and YAML, with no socket; moved from HardeningTests (StubdServerTests), which
/// keeps the `Content-Length` libmicrohttpd refuses before the engine sees the request.
@Suite struct HardeningAnswerTests {
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
    func aBadNumberOrStringIsA4xxAndTheServerGoesOn(method: String, path: String, body: String, words: String?) throws {
        let stubs = try TempStubs(["stubd.yml": HardeningAnswerTests.manifest])
        try withEngine(stubs.url) { server in
            let r = server.http(path, method: method, body: body)
            #expect((400..<500).contains(r.status), "\(method) \(path) \(body) → \(r.status) \(r.text)")
            if let words { #expect(r.text.contains(words), "\(r.text)") }
            let health = server.get("/__stubd/health")
            #expect(health.status == 200)
        }
    }

    /// A count is read as the integer it is: before, 9007199254740993 went through a Double and the
    /// refusal echoed …992, a number the client never sent (issue 38).
    @Test func aQuotaFillIsReadAndEchoedExactly() throws {
        let stubs = try TempStubs(["stubd.yml": HardeningAnswerTests.manifest])
        try withEngine(stubs.url) { server in
            let fill = "/__stubd/quotas/daily"
            let huge = server.http(fill, method: "PUT", body: #"{"key": "K", "used": {"day": 9007199254740993}}"#)
            #expect(huge.status == 400)
            #expect(huge.text.contains("used.day must be a whole number from 0 to 1000000000000000, got 9007199254740993"), "\(huge.text)")
            let half = server.http(fill, method: "PUT", body: #"{"key": "K", "used": {"day": 2.5}}"#)
            #expect(half.text.contains("got 2.5"), "\(half.text)")
            let fine = server.http(fill, method: "PUT", body: #"{"key": "K", "used": {"day": 499}}"#)
            #expect(fine.status == 200, "\(fine.text)")
            #expect(fine.text.contains(#""used":499"#), "\(fine.text)")
        }
    }

    /// The clock may be moved twice by 9.2e9 seconds only as far as 9999-12-31; the second move is refused whole.
    @Test func clockMovesThatAddUpPastTheRangeAreRefused() throws {
        let stubs = try TempStubs(["stubd.yml": HardeningAnswerTests.manifest])
        try withEngine(stubs.url) { server in
            let advance = "/__stubd/clock/advance"
            let first = server.http(advance, method: "POST", body: #"{"seconds": 200000000000}"#)
            #expect(first.status == 200)
            let second = server.http(advance, method: "POST", body: #"{"seconds": 200000000000}"#)
            #expect(second.status == 400)
            #expect(second.text.contains("9999-12-31"))
            let clock = server.get("/__stubd/clock")
            #expect(clock.text.contains("\"now\":\"8"), "the first move stands, the second moved nothing: \(clock.text)")
        }
    }

    /// 2400 was a trap (nanoseconds past 2262 overflow 64 bits); within 9999 it is simply a time.
    @Test func theClockCanBeSetFarAhead() throws {
        let stubs = try TempStubs(["stubd.yml": HardeningAnswerTests.manifest])
        try withEngine(stubs.url) { server in
            let r = server.http("/__stubd/clock/set", method: "POST",
                                body: #"{"time": "2400-01-01T00:00:00Z"}"#)
            #expect(r.status == 200)
            #expect(r.text.contains("2400-01-01T00:00:00"))
        }
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

    @Test func aYAMLAliasBombIsRefusedAtOnce() throws {
        let stubs = try TempStubs(["stubd.yml": HardeningAnswerTests.manifest])
        try withEngine(stubs.url) { server in
            let started = Date()
            let r = server.http("/__stubd/stubs", method: "POST", body: HardeningAnswerTests.aliasBomb)
            let elapsed = Date().timeIntervalSince(started)
            #expect(r.status == 400)
            #expect(r.text.contains("anchor &a is not allowed"), "\(r.text)")
            #expect(elapsed < 1, "took \(elapsed) s")
        }
    }

    @Test func aManifestWithAnAliasBombDoesNotLoad() throws {
        let bomb = "routes:\n  - " + HardeningAnswerTests.aliasBomb.replacingOccurrences(of: "\n", with: "\n    ")
        let stubs = try TempStubs(["stubd.yml": bomb])
        #expect {
            _ = try StubCatalog.load(stubs: stubs.url)
        } throws: { error in
            "\(error)".contains("stubd.yml:5:") && "\(error)".contains("anchor &a is not allowed")
        }
    }
}

import Foundation
import StubdCoreTestSupport
import StubdTestSupport
import Testing

/// The request log's lines, byte for byte, as `stubd serve` writes them (issue 61): a plain hit, a
/// 404, a quota's count and its 429, a session, an admin call, a template, a fault, a slow answer,
/// and paths that must be escaped or cut. Written against the String-built lines before the log
/// writer built them into bytes, so the rewrite keeps what scripts and people read. Only the two
/// parts that change from run to run are replaced before comparing: the time (`TIME`) and the
/// latency's digits (`N.NN`), each checked for its shape first.
@Suite struct LogLineBytesTests {
    static let stubs: [String: String] = [
        "ok.json": "{}",
        "stubd.yml": """
            clock: { virtual: "2016-08-30T00:00:00Z" }
            routes:
              - request: { path: /slow }
                response: { body: slow, delay: 120ms }
              - request: { path: /drop }
                response: { fault: connection_reset }
              - request: { path: "/users/{id}" }
                response: { template: true, json: { id: "{{request.path.id}}" } }
              - request: { path: "/api/{key}/x.json" }
                response: { json: { ok: true } }
            quotas:
              - name: tight
                routes: ["GET /api/{key}/**"]
                key: { path: key }
                limits: ["1/minute"]

            """,
    ]

    /// Each request, and the line it leaves with `--log-format text`, then `json` (captured from the
    /// String-built formatter, 08bd72b).
    static let requests: [(request: String, text: String, json: String)] = [
        ("GET /ok.json",
         "GET /ok.json 200 route=GET /ok.json N.NNms",
         #"{"latency_ms":"N.NN","level":"info","message":"GET /ok.json 200 route=GET /ok.json N.NNms","method":"GET","path":"/ok.json","route":"GET /ok.json","status":"200","time":"TIME"}"#),
        ("GET /missing.json",
         "GET /missing.json 404 unmatched N.NNms",
         #"{"latency_ms":"N.NN","level":"info","message":"GET /missing.json 404 unmatched N.NNms","method":"GET","path":"/missing.json","status":"404","time":"TIME"}"#),
        ("GET /api/K1/x.json",
         #"GET /api/K1/x.json 200 route=GET /api/{key}/x.json N.NNms quota="tight 1/1 minute""#,
         #"{"latency_ms":"N.NN","level":"info","message":"GET /api/K1/x.json 200 route=GET /api/{key}/x.json N.NNms quota=\"tight 1/1 minute\"","method":"GET","path":"/api/K1/x.json","quota":"tight 1/1 minute","route":"GET /api/{key}/x.json","status":"200","time":"TIME"}"#),
        // The quota's virtual clock stands still: the retry is always 60s.
        ("GET /api/K1/x.json",
         #"GET /api/K1/x.json 429 route=GET /api/{key}/x.json N.NNms quota="tight exceeded, retry in 60s of virtual time (the clock stands still until POST /__stubd/clock/advance or /set moves it)""#,
         #"{"latency_ms":"N.NN","level":"info","message":"GET /api/K1/x.json 429 route=GET /api/{key}/x.json N.NNms quota=\"tight exceeded, retry in 60s of virtual time (the clock stands still until POST /__stubd/clock/advance or /set moves it)\"","method":"GET","path":"/api/K1/x.json","quota":"tight exceeded, retry in 60s of virtual time (the clock stands still until POST /__stubd/clock/advance or /set moves it)","route":"GET /api/{key}/x.json","status":"429","time":"TIME"}"#),
        ("GET /__s/alice/ok.json",
         "GET /__s/alice/ok.json 200 route=GET /ok.json session=alice N.NNms",
         #"{"latency_ms":"N.NN","level":"info","message":"GET /__s/alice/ok.json 200 route=GET /ok.json session=alice N.NNms","method":"GET","path":"/__s/alice/ok.json","route":"GET /ok.json","session":"alice","status":"200","time":"TIME"}"#),
        ("GET /__stubd/health",
         "GET /__stubd/health 200 N.NNms",
         #"{"latency_ms":"N.NN","level":"info","message":"GET /__stubd/health 200 N.NNms","method":"GET","path":"/__stubd/health","status":"200","time":"TIME"}"#),
        ("GET /users/7",
         "GET /users/7 200 route=GET /users/{id} N.NNms",
         #"{"latency_ms":"N.NN","level":"info","message":"GET /users/7 200 route=GET /users/{id} N.NNms","method":"GET","path":"/users/7","route":"GET /users/{id}","status":"200","time":"TIME"}"#),
        ("GET /drop",
         "GET /drop - route=GET /drop N.NNms fault connection_reset",
         #"{"latency_ms":"N.NN","level":"info","message":"GET /drop - route=GET /drop N.NNms fault connection_reset","method":"GET","note":"fault connection_reset","path":"/drop","route":"GET /drop","status":"0","time":"TIME"}"#),
        ("GET /slow",
         "GET /slow 200 route=GET /slow N.NNms",
         #"{"latency_ms":"N.NN","level":"info","message":"GET /slow 200 route=GET /slow N.NNms","method":"GET","path":"/slow","route":"GET /slow","status":"200","time":"TIME"}"#),
        // A backslash and a byte past ASCII as sent (the query is not logged); JSON keeps the UTF-8 as it is.
        (#"GET /a\b/é?q="1""#,
         #"GET /a\\b/é 404 unmatched N.NNms"#,
         #"{"latency_ms":"N.NN","level":"info","message":"GET /a\\b/é 404 unmatched N.NNms","method":"GET","path":"/a\\b/é","status":"404","time":"TIME"}"#),
        // Control characters decoded from the path, escaped so that no path can start a line of its own.
        ("GET /x%0Ay%1B%5C%7F%09",
         #"GET /x\ny\x1b\\\x7f\t 404 unmatched N.NNms"#,
         #"{"latency_ms":"N.NN","level":"info","message":"GET /x\ny\u001b\\\u007f\t 404 unmatched N.NNms","method":"GET","path":"/x\ny\u001b\\\u007f\t","status":"404","time":"TIME"}"#),
        // Past 2 KB the message (text) and each field (JSON) is cut, with a marker saying how much.
        ("GET /" + String(repeating: "L", count: 2_100),
         "GET /" + String(repeating: "L", count: 2_043) + "…[cut N bytes]",
         #"{"latency_ms":"N.NN","level":"info","message":"GET /"# + String(repeating: "L", count: 2_043) + #"…[cut N bytes]","method":"GET","path":"/"# + String(repeating: "L", count: 2_047) + #"…[cut 53 bytes]","status":"404","time":"TIME"}"#),
    ]

    @Test(arguments: ["text", "json"])
    func eachRequestLeavesTheLineItAlwaysHas(format: String) async throws {
        let serve = try ServeProcess(serving: Self.stubs, ["--log-format", format])
        var lines: [String] = []
        for (i, (request, text, json)) in Self.requests.enumerated() {
            _ = rawExchange(port: serve.port, Array("\(request) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            // One line at a time: a request's line is written after its answer, and the next request must not overtake it.
            let written = await eventually(within: bound(5)) { Self.requestLines(serve.log).count > i }
            try #require(written, "no log line for \(request): \(serve.log)")
            lines = Self.requestLines(serve.log)
            let line = lines[i]
            #expect(Self.normalized(line, format: format) == (format == "json" ? json : text), "\(request)")
            if format == "json" {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
                #expect(object["level"] == "info" && object["method"] == "GET", "\(line)")
            }
        }
        // The slow answer's latency is its delay at least, written as milliseconds with two decimals.
        let slow = try #require(lines.first { $0.contains("/slow") })
        let millis = try #require(slow.firstMatch(of: format == "json" ? /"latency_ms":"(\d+)\.(\d+)"/ : /\ (\d+)\.(\d\d)ms/))
        #expect(Int(millis.1).map { $0 >= 120 } == true, "\(slow)")
    }

    /// The lines after the first (`stubd listening on …`) that are request lines.
    static func requestLines(_ log: String) -> [String] {
        log.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            .filter { $0.contains(" info GET ") || $0.contains(#""method":"GET""#) }
    }

    /// The line with its time and its latency's digits replaced, once their shapes are checked.
    static func normalized(_ line: String, format: String) -> String {
        var line = line
        if format == "json" {
            line = line.replacing(/"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/, with: #""time":"TIME""#)
            line = line.replacing(/"latency_ms":"\d+\.\d+"/, with: #""latency_ms":"N.NN""#)
        } else if let prefix = line.prefixMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\ info\ /) {
            line = String(line[prefix.range.upperBound...])
        }
        // The long path's message is cut by how many bytes its latency's digits leave.
        return line.replacing(/\ \d+\.\d\dms/, with: " N.NNms").replacing(/…\[cut (78|79|80) bytes\]/, with: "…[cut N bytes]")
    }
}

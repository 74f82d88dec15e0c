import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
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

/// Who may use the admin API, and what the journal shows (issue 11, exposure).
@Suite struct AdminExposureTests {
    @Test func aTokenIsRequiredForEveryAdminCallButHealth() async throws {
        var options = StubServer.Options()
        options.adminToken = "s3cret"
        try await withServer(exampleStubs, options: options) { server in
            #expect(try await get(server.baseURL, "/__stubd/health").status == 200)
            let without = try await get(server.baseURL, "/__stubd/hits")
            #expect(without.status == 401)
            #expect(without.text.contains("STUBD_ADMIN_TOKEN"))
            #expect(try await get(server.baseURL, "/__stubd/hits", headers: ["Authorization": "Bearer wrong"]).status == 401)
            #expect(try await get(server.baseURL, "/__stubd/hits", headers: ["Authorization": "Bearer s3cret"]).status == 200)
            // The server's own StubControl sends it.
            _ = try await get(server.baseURL, "/bench/payload.json")
            #expect(try await server.hits("GET /bench/payload.json") == 1)
        }
    }

    @Test func beyondLoopbackWithoutATokenTheAdminAPIIsClosed() async throws {
        var options = StubServer.Options()
        options.adminToken = nil
        let server = try await StubServer.start(stubs: exampleStubs, host: "0.0.0.0", options: options)
        defer { server.stopSynchronously() }
        let local = URL(string: "http://127.0.0.1:\(server.port)")!
        #expect(try await get(local, "/__stubd/health").status == 200)
        let r = try await get(local, "/__stubd/requests")
        #expect(r.status == 401)
        #expect(r.text.contains("admin API is closed"))
        #expect(try await get(local, "/bench/payload.json").status == 200, "stubs are served as ever")
    }

    @Test(arguments: [("evil.example", 403), ("evil.example:80", 403), ("localhost:8080", 200), ("127.0.0.1", 200),
                      ("[::1]:9", 200), ("api.localhost", 200), ("stubd:8080", 200), ("10.1.2.3", 200)])
    func adminCallsAnswerOnlyToLoopbackNamesAddressesAndAllowedHosts(host: String, status: Int) async throws {
        var options = StubServer.Options()
        options.allowedHosts = ["stubd"]
        try await withServer(exampleStubs, options: options) { server in
            let r = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", server.baseURL.absoluteString + "/__stubd/routes"])
            #expect(r.output == String(status), "Host: \(host)")
            // Stubs themselves answer any Host: an app may use a hostname that resolves here.
            let stub = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", server.baseURL.absoluteString + "/bench/payload.json"])
            #expect(stub.output == "200")
        }
    }

    @Test func theJournalMasksCredentials() async throws {
        var options = StubServer.Options()
        options.maskedHeaders = ["X-Api-Key"]
        try await withServer(exampleStubs, options: options) { server in
            _ = try await get(server.baseURL, "/bench/payload.json",
                              headers: ["Authorization": "Bearer abc123", "Cookie": "sid=xyz789", "X-Api-Key": "k-456", "Accept": "application/json"])
            let journal = try await get(server.baseURL, "/__stubd/requests")
            #expect(!journal.text.contains("abc123") && !journal.text.contains("xyz789") && !journal.text.contains("k-456"), "\(journal.text)")
            #expect(journal.text.contains("Bearer <masked>"))
            #expect(journal.text.contains("application/json"), "other headers stay as sent")
        }
    }

    @Test(arguments: [".env", "sub/.git/config", "stubd.yml", "__files/.secret"])
    func aRuntimeStubCannotServeDotFilesOrTheManifest(file: String) async throws {
        let stubs = try TempStubs(["stubd.yml": "routes: []\n", ".env": "PASSWORD=hunter2", "sub/.git/config": "x", "__files/.secret": "x", "ok.json": "{}"])
        try await withServer(stubs.url) { server in
            let r = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/stubs")!, method: "POST",
                                   body: #"{"request": {"path": "/leak"}, "response": {"file": "\#(file)"}}"#)
            #expect(r.status == 400, "\(file) → \(r.status)")
            #expect(r.text.contains("dot-file or the manifest"))
            #expect(try await get(server.baseURL, "/leak").status == 404)
        }
    }

    @Test func listeningBeyondLoopbackIsAWarningEvenAtWarningLevel() async throws {
        // Output to a file, read with a deadline: a pipe read could wait forever for a line that never comes.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-warning-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--stubs", exampleStubs.path, "--host", "0.0.0.0", "--port", "0", "--no-watch", "--log-level", "warning"]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "STUBD_ADMIN_TOKEN")
        process.environment = env
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var text = ""
        _ = await eventually(within: 5) {
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.contains("reachable from other machines")
        }
        #expect(text.contains("warning"), "\(text)")
        #expect(text.contains("admin API is closed until you give --admin-token"), "\(text)")
    }

}

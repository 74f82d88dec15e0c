import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Stubd
import StubdTestSupport
import Testing

/// `/__stubd/ui` and `/__stubd/events` over real sockets (issue 30). What the page does in a browser
/// is Tests/Browser/dashboard_test.py's (headless Chromium, run by scripts/test).
@Suite struct DashboardTests {
    static let stubs: [String: String] = ["ok.json": #"{"ok": true}"#]

    /// The head of a GET sent with curl exactly as given, and its body.
    static func fetch(_ server: StubServer, _ path: String, _ headers: [String] = []) throws -> (head: String, body: String) {
        let out = try curl(["-s", "-i"] + headers.flatMap { ["-H", $0] } + [server.baseURL.absoluteString + path]).output
        guard let split = out.range(of: "\r\n\r\n") else { return (out, "") }
        return (String(out[..<split.lowerBound]), String(out[split.upperBound...]))
    }

    @Test func thePageAndItsFilesComeWithAStrictPolicyAndNoInlineScript() async throws {
        try await withServer(try TempStubs(DashboardTests.stubs).url) { server in
            let page = try DashboardTests.fetch(server, "/__stubd/ui")
            #expect(page.head.hasPrefix("HTTP/1.1 200"), "\(page.head)")
            #expect(page.head.contains("Content-Type: text/html; charset=utf-8"))
            let csp = page.head.split(separator: "\r\n").first { $0.hasPrefix("Content-Security-Policy: ") } ?? ""
            #expect(csp.contains("default-src 'self'"), "\(csp)")
            #expect(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"), "\(csp)")
            #expect(!csp.contains("unsafe"), "\(csp)")
            #expect(page.head.contains("X-Content-Type-Options: nosniff"))
            // The policy would stop an inline script; none is there to stop.
            #expect(page.body.contains(#"<script src="/__stubd/ui/dashboard.js" defer></script>"#))
            #expect(page.body.components(separatedBy: "<script").count == 2, "one script element, with src")
            #expect(page.body.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "no inline event handler")

            for (file, type) in [("dashboard.js", "text/javascript"), ("dashboard.css", "text/css")] {
                let asset = try DashboardTests.fetch(server, "/__stubd/ui/" + file)
                #expect(asset.head.hasPrefix("HTTP/1.1 200") && asset.head.contains("Content-Type: \(type)"), "\(asset.head)")
                #expect(asset.head.contains("X-Content-Type-Options: nosniff"))
                #expect(asset.body.count > 500)
            }
            let missing = try DashboardTests.fetch(server, "/__stubd/ui/secret.txt")
            #expect(missing.head.hasPrefix("HTTP/1.1 404") && missing.body.contains("open /__stubd/ui"), "\(missing.head)")
            let post = try curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Content-Type: application/json",
                                 server.baseURL.absoluteString + "/__stubd/ui"]).output
            #expect(post == "405")
            // Nothing of the dashboard is a hit or a journal entry.
            #expect(try await get(server.baseURL, "/__stubd/requests").json["total"] as? Int == 0)
        }
    }

    @Test(arguments: [("evil.example", "403"), ("localhost:8080", "200"), ("127.0.0.1", "200")])
    func thePageAnswersOnlyToTheHostsTheAdminAPIDoes(host: String, status: String) async throws {
        try await withServer(try TempStubs(DashboardTests.stubs).url) { server in
            for path in ["/__stubd/ui", "/__stubd/ui/dashboard.js"] {
                let r = try DashboardTests.fetch(server, path, ["Host: \(host)"])
                #expect(r.head.hasPrefix("HTTP/1.1 \(status)"), "\(host) \(path): \(r.head)")
                #expect(r.head.contains("frame-ancestors 'none'"), "a refusal carries the policy too")
            }
        }
    }

    @Test func withATokenTheBrowserIsAskedForItAsABasicPassword() async throws {
        var options = StubServer.Options()
        options.adminToken = "s3cret"
        try await withServer(try TempStubs(DashboardTests.stubs).url, options: options) { server in
            let bare = try DashboardTests.fetch(server, "/__stubd/ui")
            #expect(bare.head.hasPrefix("HTTP/1.1 401"), "\(bare.head)")
            #expect(bare.head.contains(#"WWW-Authenticate: Basic realm="stubd admin token""#), "\(bare.head)")
            #expect(bare.body.contains("password"))
            let wrong = try DashboardTests.fetch(server, "/__stubd/ui", ["Authorization: Basic " + Data("me:guess".utf8).base64EncodedString()])
            #expect(wrong.head.hasPrefix("HTTP/1.1 401"))
            let basic = "Authorization: Basic " + Data("anyone:s3cret".utf8).base64EncodedString()
            #expect(try DashboardTests.fetch(server, "/__stubd/ui", [basic]).head.hasPrefix("HTTP/1.1 200"))
            #expect(try DashboardTests.fetch(server, "/__stubd/ui", ["Authorization: Bearer s3cret"]).head.hasPrefix("HTTP/1.1 200"))
            // The calls the page makes with the password the browser keeps.
            #expect(try DashboardTests.fetch(server, "/__stubd/routes", [basic]).head.hasPrefix("HTTP/1.1 200"))
            // An API call without it still gets a Bearer challenge, not a browser password prompt.
            let api = try DashboardTests.fetch(server, "/__stubd/routes")
            #expect(api.head.hasPrefix("HTTP/1.1 401") && api.head.contains("WWW-Authenticate: Bearer"), "\(api.head)")
            let events = rawExchange(port: server.port, Array("GET /__stubd/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), timeout: 1)
            #expect(events.hasPrefix("HTTP/1.1 401"), "\(events)")
        }
    }

    @Test func beyondLoopbackWithoutATokenThePageIsClosedAsTheAPIIs() async throws {
        var options = StubServer.Options()
        options.adminToken = nil
        let server = try await StubServer.start(stubs: try TempStubs(DashboardTests.stubs).url, host: "0.0.0.0", options: options)
        defer { server.stopSynchronously() }
        let local = URL(string: "http://127.0.0.1:\(server.port)")!
        let r = try await get(local, "/__stubd/ui")
        #expect(r.status == 401)
        #expect(r.text.contains("admin API is closed"))
    }

    @Test func theSessionsCallListsEverySessionWithItsRequests() async throws {
        try await withServer(try TempStubs(DashboardTests.stubs).url) { server in
            _ = try await get(server.baseURL, "/ok.json")
            _ = try await get(server.baseURL, "/__s/t1/ok.json")
            _ = try await get(server.baseURL, "/__s/t1/nothing")
            let sessions = try await get(server.baseURL, "/__stubd/sessions").json["sessions"] as? [[String: Any]] ?? []
            #expect(sessions.map { $0["id"] as? String } == ["", "t1"])
            #expect(sessions.last?["requests"] as? Int == 2)
            #expect(sessions.last?["unmatched"] as? Int == 1)
        }
    }

    /// The State view's two reads: each resource with the session's count (a new call) and each
    /// scenario's state, per session; and, like every admin read, nothing another site may read:
    /// no `Access-Control-Allow-Origin` for a page elsewhere, and a foreign Host refused.
    @Test func theStateViewReadsEachSessionsResourceCountsAndScenarioStatesAndNothingCrossSite() async throws {
        let manifest = """
            routes:
              - request: { method: POST, path: /pay }
                response: { json: { paid: true } }
                scenario: checkout
                thenState: paid
            resources:
              - path: /todos
                items: [{ id: 1, title: seed }]
            """
        try await withServer(try TempStubs(["stubd.yml": manifest]).url) { server in
            let created = try curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--json", #"{"title": "mine"}"#,
                                    server.baseURL.absoluteString + "/__s/t1/todos"]).output
            #expect(created == "201")
            #expect(try curl(["-s", "-X", "POST", server.baseURL.absoluteString + "/__s/t1/pay"]).output.contains("paid"))

            let mine = try DashboardTests.fetch(server, "/__stubd/resources?session=t1")
            #expect(mine.head.hasPrefix("HTTP/1.1 200"), "\(mine.head)")
            #expect(mine.body == #"{"resources":[{"count":2,"name":"todos","path":"/todos"}],"session":"t1"}"#, "\(mine.body)")
            let theirs = try DashboardTests.fetch(server, "/__stubd/resources")
            #expect(theirs.body.contains(#""count":1"#), "the default session still holds the seed: \(theirs.body)")
            let states = try DashboardTests.fetch(server, "/__stubd/scenarios?session=t1")
            #expect(states.body.contains(#""name":"checkout","state":"paid""#), "\(states.body)")
            #expect(try DashboardTests.fetch(server, "/__stubd/scenarios").body.contains(#""state":"Started""#))

            for call in ["resources", "scenarios"] {
                let elsewhere = try DashboardTests.fetch(server, "/__stubd/" + call, ["Origin: http://evil.example"])
                #expect(!elsewhere.head.lowercased().contains("access-control-allow-origin"), "a page elsewhere may not read \(call): \(elsewhere.head)")
                let rebound = try DashboardTests.fetch(server, "/__stubd/" + call, ["Host: evil.example"])
                #expect(rebound.head.hasPrefix("HTTP/1.1 403"), "\(rebound.head)")
            }
        }
    }

    /// An open event stream on a raw socket: what arrives, read as it comes.
    final class EventStream {
        let fd: Int32
        var received = ""

        init?(port: UInt16, query: String = "") {
            guard let fd = connectLoopback(port: port) else { return nil }
            self.fd = fd
            var tv = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            let request = Array("GET /__stubd/events\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        deinit { close(fd) }

        /// Reads until `done` holds for what has arrived, the server closes, or `seconds` pass; whether `done` held.
        func read(for seconds: Double = 10, until done: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !done(received), Date() < deadline {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n == 0 { return done(received) }
                if n > 0 { received += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
            return done(received)
        }

        /// Whether the server ended the stream (EOF or reset) within `seconds`.
        func closes(within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n == 0 { return true }
                if n < 0, errno != EAGAIN, errno != EWOULDBLOCK { return true }
            }
            return false
        }
    }

    @Test func theEventStreamSaysWhichSessionChangedAndOnlyItsOwn() async throws {
        try await withServer(try TempStubs(DashboardTests.stubs).url) { server in
            let own = try #require(EventStream(port: server.port, query: "?session=t1"))
            let all = try #require(EventStream(port: server.port, query: "?all=1"))
            #expect(own.read { $0.contains(": stubd events") }, "\(own.received)")
            #expect(own.received.hasPrefix("HTTP/1.1 200") && own.received.contains("Content-Type: text/event-stream"), "\(own.received)")
            #expect(all.read { $0.contains(": stubd events") })
            _ = try await get(server.baseURL, "/ok.json")             // the default session: not t1's business
            _ = try await get(server.baseURL, "/__s/t1/nothing")      // unmatched, in t1
            #expect(own.read { $0.contains("event: change\ndata: [\"t1\"]") }, "\(own.received)")
            #expect(!own.received.contains(#""""#), "the default session's hit reached t1's stream: \(own.received)")
            #expect(all.read { $0.contains("\"t1\"") && $0.contains("\"\"") }, "\(all.received)")
            // An admin write is a change too.
            _ = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/clock/advance?session=t1")!, method: "POST",
                               body: #"{"seconds": 5}"#, headers: ["Content-Type": "application/json"])
            let before = own.received.components(separatedBy: "event: change").count
            #expect(own.read { $0.components(separatedBy: "event: change").count > before }, "\(own.received)")
        }
    }

    @Test func eventStreamsAreCappedAndEveryOneEndsWhenTheServerStops() async throws {
        let server = try await StubServer.start(stubs: try TempStubs(DashboardTests.stubs).url)
        let cap = server.engine.changes.maxSubscribers
        var streams: [EventStream] = []
        for _ in 0..<cap {
            let s = try #require(EventStream(port: server.port))
            #expect(s.read { $0.contains(": stubd events") }, "\(s.received)")
            streams.append(s)
        }
        #expect(server.engine.changes.count == cap)
        let refused = rawExchange(port: server.port, Array("GET /__stubd/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), timeout: 2)
        #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused)")
        #expect(refused.contains("close a dashboard tab"), "\(refused)")
        // A stream whose client leaves frees its place.
        streams.removeLast()
        _ = try await get(server.baseURL, "/ok.json")
        for _ in 0..<100 where server.engine.changes.count == cap { try await Task.sleep(for: .milliseconds(100)) }
        #expect(server.engine.changes.count == cap - 1)
        // Stop ends every open stream, and promptly (no stream holds the stop up).
        let started = Date()
        await server.stop()
        #expect(Date().timeIntervalSince(started) < 5)
        for s in streams { #expect(s.closes(within: 5)) }
        #expect(server.engine.changes.count == 0)
    }

    /// The binary serves the files in Sources/Stubd/Dashboard byte for byte: editing one and rebuilding
    /// is all it takes (Package.swift embeds them at build time; no generated copy to keep in step).
    @Test func theServedPageIsTheFilesBesideIt() async throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Stubd/Dashboard")
        try await withServer(try TempStubs(DashboardTests.stubs).url) { server in
            for (path, file) in [("/__stubd/ui", "dashboard.html"), ("/__stubd/ui/dashboard.css", "dashboard.css"),
                                 ("/__stubd/ui/dashboard.js", "dashboard.js")] {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let served = try DashboardTests.fetch(server, path)
                #expect(served.head.hasPrefix("HTTP/1.1 200"), "\(served.head)")
                #expect(served.body == text, "\(path) is not \(file) as it is in Sources/Stubd/Dashboard")
            }
        }
    }
}

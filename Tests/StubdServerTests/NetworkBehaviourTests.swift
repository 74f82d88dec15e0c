import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import Testing

let behaviourStubs: [String: String] = [
    "ok.json": #"{"ok": true}"#,
    "stubd.yml": """
    routes:
      - { name: slow, request: { path: /slow }, response: { json: { slow: true }, delay: 200ms } }
      - { name: hang, request: { path: /hang }, response: { fault: hang } }
      - { name: reset, request: { path: /reset }, response: { fault: connection_reset } }
      - { name: empty, request: { path: /empty }, response: { fault: empty_response } }
      - { name: truncated, request: { path: /truncated }, response: { file: ok.json, fault: truncated_body } }
      - { name: malformed, request: { path: /malformed }, response: { file: ok.json, fault: malformed_json } }
      - name: jitter
        request: { path: /jitter }
        response: { status: 204, delay: { uniform: [10ms, 30ms] } }
      - name: retry
        request: { path: /retry }
        responses: [{ status: 503, delay: 20ms }, { status: 503 }, { file: ok.json }]
    """,
]

@Suite struct DelayTests {
    /// 200 connections each waiting 200 ms, on two worker threads: suspended, not sleeping.
    @Test func delayedAnswersHoldNoWorkerThread() async throws {
        try await withServer(try TempStubs(behaviourStubs).url) { server in
            let url = URL(string: server.baseURL.absoluteString + "/slow")!
            let start = Date()
            async let slow: [Int] = withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 { group.addTask { try await http(url).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try await Task.sleep(for: .milliseconds(60))
            let plainStart = Date()
            #expect(try await get(server.baseURL, "/ok.json").status == 200)
            let plain = Date().timeIntervalSince(plainStart)
            let statuses = try await slow
            let wall = Date().timeIntervalSince(start)
            #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 })
            #expect(wall >= 0.2)
            // Held worker threads would take 200 × 0.2 s / 2 threads = 20 s; 2 s leaves room for a busy machine.
            #expect(wall < bound(2), "200 delayed answers took \(wall) s")
            // A held worker would make it wait out a 200 ms delay; 150 ms leaves room for a busy machine (CI saw 57 ms).
            #expect(plain < bound(0.15), "a plain route took \(plain) s while 200 answers were delayed")
        }
    }

    @Test func aSequenceWithDelaysServesFailTwiceThenSucceed() async throws {
        try await withServer(try TempStubs(behaviourStubs).url) { server in
            let statuses = try await (0..<4).asyncMap { _ in try await get(server.baseURL, "/retry").status }
            #expect(statuses == [503, 503, 200, 200])
            let jitter = Date()
            #expect(try await get(server.baseURL, "/jitter").status == 204)
            #expect(Date().timeIntervalSince(jitter) >= 0.01)
        }
    }

    @Test func stopWithDelayedAndHangingAnswersPendingIsQuick() async throws {
        let server = try await StubServer.start(stubs: try TempStubs(behaviourStubs).url)
        let base = server.baseURL.absoluteString
        let pending = Task {
            await withTaskGroup(of: Void.self) { group in
                for path in ["/hang", "/hang", "/slow", "/slow"] { group.addTask { _ = try? await http(URL(string: base + path)!) } }
            }
        }
        _ = try await server.waitForHits("slow", count: 2, timeout: .seconds(2))
        _ = try await server.waitForHits("hang", count: 2, timeout: .seconds(2))
        let start = Date()
        await server.stop()
        #expect(Date().timeIntervalSince(start) < 1)
        await pending.value
    }
}

@Suite struct FaultTests {
    /// curl's exit codes name what the client saw: 56 reset, 52 empty reply, 18 partial file, 28 timeout.
    @Test(arguments: [("/reset", Int32(56)), ("/empty", 52), ("/truncated", 18), ("/hang", 28)])
    func curlSeesEachFaultForWhatItIs(path: String, exit: Int32) throws {
        let server = try StubServer(stubs: try TempStubs(behaviourStubs).url)
        defer { server.stopSynchronously() }
        let r = try run("/usr/bin/curl", ["-s", "-o", "/dev/null", "--max-time", "1", server.baseURL.absoluteString + path])
        #expect(r.status == exit)
    }

    @Test func malformedJSONIs200WithAJSONTypeAndABodyThatDoesNotParse() async throws {
        try await withServer(try TempStubs(behaviourStubs).url) { server in
            let r = try await get(server.baseURL, "/malformed")
            #expect(r.status == 200)
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            #expect((try? JSONSerialization.jsonObject(with: r.body)) == nil)
        }
    }

    /// What URLSession on Linux reports for each fault (the README's table comes from here).
    ///
    /// corelibs URLSession now and then reports `.timedOut` within milliseconds for a reset or a
    /// truncated body (7 of 25 runs of the four faults failed on that when each was asked once; up
    /// to 4 of 5 when sessions are made back to back; once, under AddressSanitizer in CI, 5 of 5 for
    /// an empty response). So each fault is asked five times, and up to fifteen until the documented
    /// code has come: it must come at least once, and nothing but `.timedOut` otherwise.
    @Test(arguments: [("/reset", URLError.Code.networkConnectionLost), ("/empty", .badServerResponse),
                      ("/truncated", .unknown), ("/hang", .timedOut)])
    func urlSessionReports(path: String, code: URLError.Code) async throws {
        try await withServer(try TempStubs(behaviourStubs).url) { server in
            var codes: [URLError.Code] = []
            for attempt in 0..<15 {
                if attempt >= 5, codes.contains(code) { break }
                let configuration = URLSessionConfiguration.ephemeral
                configuration.timeoutIntervalForRequest = 0.5
                let session = URLSession(configuration: configuration)
                defer { session.invalidateAndCancel() }
                do {
                    _ = try await http(URL(string: server.baseURL.absoluteString + path)!, session: session)
                    Issue.record("\(path) answered")
                } catch let error as URLError {
                    codes.append(error.code)
                }
            }
            #expect(codes.contains(code), "\(path): \(codes.map(\.rawValue))")
            #expect(codes.allSatisfy { $0 == code || $0 == .timedOut }, "\(path): \(codes.map(\.rawValue))")
        }
    }

    @Test func aRefusedConnectionIsCannotConnectToHost() async throws {
        let server = try await StubServer.start(stubs: exampleStubs)
        let url = URL(string: server.baseURL.absoluteString + "/bench/payload.json")!
        await server.stop()
        do {
            _ = try await http(url)
            Issue.record("answered after stop")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
        }
    }
}

@Suite struct RuntimeStubTests {
    @Test func aRuntimeStubOverridesTheCatalogUntilRemoved() async throws {
        try await withServer(exampleStubs) { server in
            let path = "/api/KEY/conditions/q/CA/San_Francisco.json"
            let id = try await server.addStub(StubRoute(.get(path), response: .status(500)))
            #expect(try await get(server.baseURL, path).status == 500)
            try await server.removeStub(id: id)
            #expect(try await get(server.baseURL, path).status == 200)
        }
    }

    @Test func runtimeStubsBelongToTheirSession() async throws {
        try await withServer(exampleStubs) { server in
            let a = server.session("a")
            _ = try await a.addStub(StubRoute(.get("/flaky"), responses: [.status(503), .status(503), .json(#"{"ok":1}"#)]))
            #expect(try await get(server.baseURL, "/flaky").status == 404)
            let statuses = try await (0..<4).asyncMap { _ in try await get(a.baseURL, "/flaky").status }
            #expect(statuses == [503, 503, 200, 200])
            let once = try await a.addStub(StubRoute(.get("/once"), response: .text("hi"), times: 1))
            #expect(!once.isEmpty)
            #expect(try await get(a.baseURL, "/once").status == 200)
            #expect(try await get(a.baseURL, "/once").status == 404)
        }
    }

    @Test func aRuntimeStubsJSONArrivesAsWritten() async throws {
        try await withServer(exampleStubs) { server in
            let json = #"{"id": 7, "price": 2.5, "tags": ["a", "/b"], "ok": true, "none": null, "tweet": 1234567890123456}"#
            _ = try await server.addStub(StubRoute(.post("/v1/reports"), response: .json(json, status: 201)))
            let r = try await http(URL(string: server.baseURL.absoluteString + "/v1/reports")!, method: "POST", body: "")
            #expect(r.status == 201)
            // Integers stay integers (7, not 7.0; a 16-digit ID not in exponent form), slashes unescaped.
            let body = String(decoding: r.body, as: UTF8.self)
            #expect(body.contains(#""id":7"#) || body.contains(#""id": 7"#))
            #expect(body.contains(#""tweet":1234567890123456"#))
            #expect(r.json["price"] as? Double == 2.5)
            #expect(r.json["tags"] as? [String] == ["a", "/b"])
        }
    }

    @Test func aRuntimeStubWhoseJSONIsNotJSONIsRefusedBeforeSending() async throws {
        try await withServer(exampleStubs) { server in
            do {
                _ = try await server.addStub(StubRoute(.get("/typo"), responses: [.status(503), .json(#"{"ok": tru}"#)]))
                Issue.record("a stub whose json is not JSON was added")
            } catch let error as StubdError {
                #expect("\(error)".contains("GET /typo"))
                #expect("\(error)".contains("response 2 of 2's json is not valid JSON"))
            }
            #expect((try await get(server.baseURL, "/__stubd/stubs").json["stubs"] as? [Any])?.count == 0)
        }
    }

    @Test func aBadRuntimeStubIs400SayingWhichFieldAndChangesNothing() async throws {
        try await withServer(exampleStubs) { server in
            let before = try await get(server.baseURL, "/__stubd/stubs").json["stubs"] as? [Any]
            let r = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/stubs")!, method: "POST",
                                   body: #"{"request": {"path": "/x"}, "response": {"status": 200, "delay": "soonish"}}"#)
            #expect(r.status == 400)
            #expect((r.json["detail"] as? String)?.contains("'soonish' is not a duration") == true)
            let notJSON = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/stubs")!, method: "POST", body: "{oops")
            #expect(notJSON.status == 400)
            let after = try await get(server.baseURL, "/__stubd/stubs").json["stubs"] as? [Any]
            #expect(before?.count == 0 && after?.count == 0)
            let gone = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/stubs/s999")!, method: "DELETE")
            #expect(gone.status == 404)
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}

@Suite struct ThrottleTests {
    /// 4 KB at 8 KB/s: about half a second, and the body arrives whole.
    @Test func aThrottledBodyArrivesWholeAtTheGivenRate() async throws {
        let body = String(repeating: "0123456789abcdef", count: 256)
        let stubs = try TempStubs(["big.txt": body, "stubd.yml": """
            routes:
              - { request: { path: /slow.txt }, response: { file: big.txt, throttle: { bytes_per_second: 8192 } } }
            """])
        try await withServer(stubs.url) { server in
            let start = Date()
            let r = try await get(server.baseURL, "/slow.txt")
            let elapsed = Date().timeIntervalSince(start)
            #expect(r.text == body)
            #expect(elapsed > 0.35 && elapsed < 1.5, "4096 bytes at 8192 B/s took \(elapsed) s")
            #expect(try await get(server.baseURL, "/big.txt").text == body)
        }
    }

    @Test func stopDuringADribbleIsQuick() async throws {
        let stubs = try TempStubs(["big.txt": String(repeating: "x", count: 100_000), "stubd.yml": """
            routes:
              - { name: slow, request: { path: /slow.txt }, response: { file: big.txt, throttle: { bytes_per_second: 1000 } } }
            """])
        let server = try await StubServer.start(stubs: stubs.url)
        let url = URL(string: server.baseURL.absoluteString + "/slow.txt")!
        let pending = Task { try? await http(url) }
        _ = try await server.waitForHits("slow", count: 1, timeout: .seconds(2))
        let start = Date()
        await server.stop()
        #expect(Date().timeIntervalSince(start) < 1)
        _ = await pending.value
    }
}

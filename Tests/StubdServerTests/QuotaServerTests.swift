import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing
import StubdProtocol

/// The 10/minute + 500/day key of the motivating weather API, on a virtual clock.
let quotaStubs: [String: String] = [
    "api/{key}/conditions/q/CA/San_Francisco.json": #"{"current_observation": {"temp_f": 76.5}}"#,
    "open.json": "{}",
    "stubd.yml": """
    clock: { virtual: "2016-08-30T00:00:00Z" }
    quotas:
      - name: wunderground
        routes: ["GET /api/{key}/**"]
        key: { path: key }
        limits: ["10/minute", "500/day"]
    """,
]

@Suite struct QuotaServerTests {
    /// The journal says what each request's quota stood at, and how long its answer took (issue 30:
    /// the dashboard's requests view shows both).
    @Test func theJournalNamesEachRequestsQuotaStateAndItsTime() async throws {
        try await withServer(try TempStubs(quotaStubs).url) { server in
            let path = "/api/KEY/conditions/q/CA/San_Francisco.json"
            for _ in 1...11 { _ = try await get(server.baseURL, path) }
            _ = try await get(server.baseURL, "/open.json")
            let entries = try await server.requests().requests
            #expect(entries.count == 12)
            #expect(entries.first?.quota == "wunderground 1/10 minute", "\(entries.map(\.quota))")
            #expect(entries[9].quota == "wunderground 10/10 minute", "\(entries.map(\.quota))")
            // The clock is virtual: Retry-After stays 60 until a test moves it, and the note says why (issue 45 item 6).
            #expect(entries[10].status == 429 && entries[10].quota == "wunderground exceeded, retry in 60s of virtual time (the clock stands still until POST /__stubd/clock/advance or /set moves it)", "\(entries[10])")
            #expect(entries[11].quota == nil, "a route without a quota has no quota note")
            #expect(entries.allSatisfy { ($0.tookMicroseconds ?? -1) >= 0 }, "\(entries.map(\.tookMicroseconds))")
        }
    }

    @Test func theEleventhCallGets429UntilTheClockMovesAMinute() async throws {
        try await withServer(try TempStubs(quotaStubs).url) { server in
            let path = "/api/KEY/conditions/q/CA/San_Francisco.json"
            for i in 1...10 {
                let r = try await get(server.baseURL, path)
                #expect(r.status == 200)
                #expect(r.header("RateLimit") == "\"minute\";r=\(10 - i);t=60")
                #expect(r.header("RateLimit-Policy") == #""minute";q=10;w=60, "day";q=500;w=86400"#)
            }
            let rejected = try await get(server.baseURL, path)
            #expect(rejected.status == 429)
            #expect(rejected.header("Retry-After") == "60")
            #expect(rejected.header("Content-Type") == "application/problem+json")
            #expect(rejected.json["violated-policies"] as? [String] == ["minute"])
            // Another key has its own quota.
            #expect(try await get(server.baseURL, "/api/OTHER/conditions/q/CA/San_Francisco.json").status == 200)

            try await server.advanceClock(by: .seconds(61))
            #expect(try await get(server.baseURL, path).status == 200)
            // Rejected calls were counted as hits but did not consume quota: 10 + 1 + 1 accepted calls so far.
            #expect(try await server.hits("GET /api/{key}/conditions/q/CA/San_Francisco.json") == 13)
        }
    }

    /// A keep-alive connection reuses its last quota'd response with new header values (see
    /// ConnectionState): every answer must still carry its own count, also when the value's length
    /// changes (r=10 → r=9), after a 429, and after a plain answer in between.
    @Test func oneConnectionSeesEachAnswersOwnRateLimit() throws {
        var files = quotaStubs
        files["stubd.yml"] = """
        clock: { virtual: "2016-08-30T00:00:00Z" }
        quotas:
          - { name: twelve, routes: ["GET /api/{key}/**"], key: { path: key }, limits: ["12/minute"] }
        """
        let server = try StubServer(stubs: try TempStubs(files).url)
        defer { server.stopSynchronously() }
        let quotaURL = server.baseURL.absoluteString + "/api/KEY/conditions/q/CA/San_Francisco.json"
        let plainURL = server.baseURL.absoluteString + "/open.json"
        let urls = Array(repeating: quotaURL, count: 6) + [plainURL] + Array(repeating: quotaURL, count: 7)
        // -D - prints every response's headers; -v tells (on stderr) whether a connection was reused.
        let r = try run("/usr/bin/curl", ["-sv", "--max-time", "5", "-D", "-"] + urls.flatMap { ["-o", "/dev/null", $0] })
        #expect(r.status == 0)
        #expect(r.error.components(separatedBy: "Connected to").count - 1 == 1)
        let lines = r.output.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let statuses = lines.filter { $0.hasPrefix("HTTP/1.1 ") }.map { String($0.split(separator: " ")[1]) }
        #expect(statuses == Array(repeating: "200", count: 13) + ["429"])
        // The 429 names the exhausted policy too.
        let values = lines.filter { $0.hasPrefix("RateLimit:") }.map { String($0.dropFirst("RateLimit: ".count)) }
        #expect(values == (0..<12).map { "\"minute\";r=\(11 - $0);t=60" } + ["\"minute\";r=0;t=60"])
    }

    @Test func sixtyFourConcurrentClientsGetExactlyTheDailyQuota() async throws {
        var files = quotaStubs
        files["stubd.yml"] = """
        quotas:
          - { name: daily, routes: ["GET /open.json"], limits: ["500/day"] }
        """
        try await withServer(try TempStubs(files).url) { server in
            let url = URL(string: server.baseURL.absoluteString + "/open.json")!
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<64 {
                    group.addTask { var s: [Int] = []; for _ in 0..<10 { s.append(try await http(url).status) }; return s }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            #expect(statuses.count == 640)
            #expect(statuses.filter { $0 == 200 }.count == 500)
            #expect(statuses.filter { $0 == 429 }.count == 140)
            #expect(try await server.hits("GET /open.json") == 640)
        }
    }

    @Test func aPrefilledQuotaReachesTheFailurePathInOneCall() async throws {
        try await withServer(try TempStubs(quotaStubs).url) { server in
            try await server.setQuotaUsed("wunderground", key: "KEY", used: ["day": 500])
            let r = try await get(server.baseURL, "/api/KEY/conditions/q/CA/San_Francisco.json")
            #expect(r.status == 429)
            #expect(r.json["violated-policies"] as? [String] == ["day"])
            #expect(r.header("Retry-After") == "86400")
        }
    }

    @Test func adminMistakesGetProblemJSONAndChangeNothing() async throws {
        try await withServer(try TempStubs(quotaStubs).url) { server in
            let base = server.baseURL.absoluteString
            let unknown = try await http(URL(string: base + "/__stubd/quotas/nope")!, method: "PUT", body: #"{"used": {"day": 1}}"#)
            #expect(unknown.status == 404)
            #expect((unknown.json["detail"] as? String)?.contains("quotas: wunderground") == true)
            let badJSON = try await http(URL(string: base + "/__stubd/quotas/wunderground")!, method: "PUT", body: "{used:")
            #expect(badJSON.status == 400)
            let badPolicy = try await http(URL(string: base + "/__stubd/quotas/wunderground")!, method: "PUT", body: #"{"used": {"week": 1}}"#)
            #expect(badPolicy.status == 400)
            let badClock = try await http(URL(string: base + "/__stubd/clock/advance")!, method: "POST", body: #"{"seconds": -5}"#)
            #expect(badClock.status == 400)
            #expect(badClock.header("Content-Type") == "application/problem+json")
            let quotas = try await get(server.baseURL, "/__stubd/quotas").json["quotas"] as? [[String: Any]]
            #expect((quotas?.first?["keys"] as? [Any])?.isEmpty == true)
            #expect(try await get(server.baseURL, "/__stubd/clock").json["now"] as? String == "2016-08-30T00:00:00.000Z")
        }
    }

    /// The clock's answer says what it is (frozen or running with the wall clock) and how far the
    /// admin API has moved it, not `"virtual": false` right after a move.
    @Test(arguments: [("clock: system\n", false), ("clock: { virtual: \"2016-08-30T00:00:00Z\" }\n", true)])
    func movingTheClockAnswersWhetherItIsFrozenAndHowFarItMoved(manifest: String, frozen: Bool) async throws {
        try await withServer(try TempStubs(["ok.json": "{}", "stubd.yml": manifest]).url) { server in
            let moved = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/clock/advance")!, method: "POST",
                                       body: #"{"seconds": 61}"#)
            #expect(moved.status == 200)
            #expect(moved.json["frozen"] as? Bool == frozen, "\(moved.text)")
            #expect(moved.json["offsetSeconds"] as? Double == 61, "\(moved.text)")
            #expect(moved.json["virtual"] == nil, "\(moved.text)")
            let reset = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/reset")!, method: "POST", body: "{}")
            #expect(reset.status == 200)
            #expect(try await get(server.baseURL, "/__stubd/clock").json["offsetSeconds"] as? Double == 0)
        }
    }

    @Test func profilesOnTheWire() async throws {
        var files = quotaStubs
        files["stubd.yml"] = """
        quotas:
          - { name: owm, routes: ["GET /open.json"], limits: ["1/minute"], exceeded: { profile: openweathermap }, advertise: none }
          - { name: gh, routes: ["GET /api/**"], limits: ["1/hour"], exceeded: { profile: github }, advertise: github }
        # A virtual clock: on the wall clock the two calls could fall either side of a minute.
        clock: { virtual: "2016-08-30T00:00:10Z" }
        """
        try await withServer(try TempStubs(files).url) { server in
            let first = try await get(server.baseURL, "/open.json")
            #expect(first.header("RateLimit") == nil)
            let owm = try await get(server.baseURL, "/open.json")
            #expect(owm.status == 429)
            #expect((owm.json["cod"] as? NSNumber)?.intValue == 429)
            let ok = try await get(server.baseURL, "/api/K/conditions/q/CA/San_Francisco.json")
            #expect(ok.header("x-ratelimit-remaining") == "0")
            #expect(ok.header("x-ratelimit-resource") == "core", "GitHub's resource name, not the quota's")
            let gh = try await get(server.baseURL, "/api/K/conditions/q/CA/San_Francisco.json")
            #expect(gh.status == 403)
            #expect((gh.json["message"] as? String)?.hasPrefix("API rate limit exceeded") == true)
        }
    }
}

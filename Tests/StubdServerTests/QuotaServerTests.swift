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
let quotaStubs = WeatherQuotaStubs.files

/// Quotas through a real server: what the wire carries of them (a keep-alive connection's reused
/// answers, concurrent clients, a profile's answer as sent). What a quota decides, with no socket:
/// QuotaAnswerTests in StubdCoreTests.
@Suite struct QuotaServerTests {
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

import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol

/// What a quota decides, answered by the engine with no socket (`EngineHarness`; these ran through a
/// real server before issue 59): the 429 and its headers, the journal's quota notes, the admin calls
/// that fill a quota or move the clock. QuotaServerTests in StubdServerTests keeps what needs one: a
/// keep-alive connection's reused answers, 64 concurrent clients, the profiles on the wire.
@Suite struct QuotaAnswerTests {
    /// The 10/minute + 500/day key of the motivating weather API, on a virtual clock.
    static let stubs = WeatherQuotaStubs.files

    /// The journal says what each request's quota stood at, and how long its answer took (issue 30:
    /// the dashboard's requests view shows both), read without a socket.
    @Test func theJournalNamesEachRequestsQuotaStateAndItsTime() throws {
        let harness = try EngineHarness(TempStubs(Self.stubs))
        let path = "/api/KEY/conditions/q/CA/San_Francisco.json"
        for _ in 1...11 { _ = harness.answer(path) }
        _ = harness.answer("/open.json")
        let entries = try harness.requests().requests
        #expect(entries.count == 12)
        #expect(entries.first?.quota == "wunderground 1/10 minute", "\(entries.map(\.quota))")
        #expect(entries[9].quota == "wunderground 10/10 minute", "\(entries.map(\.quota))")
        // The clock is virtual: Retry-After stays 60 until a test moves it, and the note says why (issue 45 item 6).
        #expect(entries[10].status == 429 && entries[10].quota == "wunderground exceeded, retry in 60s of virtual time (the clock stands still until POST /__stubd/clock/advance or /set moves it)", "\(entries[10])")
        #expect(entries[11].quota == nil, "a route without a quota has no quota note")
        #expect(entries.allSatisfy { ($0.tookMicroseconds ?? -1) >= 0 }, "\(entries.map(\.tookMicroseconds))")
    }

    /// The eleventh call in a minute is refused with the policy it broke, another key keeps its own
    /// count, and moving the session's clock a minute (the admin call) lets the key in again.
    @Test func theEleventhCallGets429UntilTheClockMovesAMinute() throws {
        let harness = try EngineHarness(TempStubs(Self.stubs))
        let path = "/api/KEY/conditions/q/CA/San_Francisco.json"
        for i in 1...10 {
            let r = harness.answer(path)
            #expect(r.status == 200)
            #expect(r.header("RateLimit") == "\"minute\";r=\(10 - i);t=60")
            #expect(r.header("RateLimit-Policy") == #""minute";q=10;w=60, "day";q=500;w=86400"#)
        }
        let rejected = harness.answer(path)
        #expect(rejected.status == 429)
        #expect(rejected.header("Retry-After") == "60")
        #expect(rejected.header("Content-Type") == "application/problem+json")
        #expect(rejected.json["violated-policies"] as? [String] == ["minute"])
        // Another key has its own quota.
        #expect(harness.answer("/api/OTHER/conditions/q/CA/San_Francisco.json").status == 200)

        #expect(harness.admin(.post, "clock/advance", body: #"{"seconds": 61}"#).status == 200)
        #expect(harness.answer(path).status == 200)
        // Rejected calls were counted as hits but did not consume quota: 10 + 1 + 1 accepted calls so far.
        #expect(try harness.hits("GET /api/{key}/conditions/q/CA/San_Francisco.json") == 13)
    }

    /// A day's quota filled through the admin API refuses the next call at once, naming the day.
    @Test func aPrefilledQuotaReachesTheFailurePathInOneCall() throws {
        let harness = try EngineHarness(TempStubs(Self.stubs))
        #expect(harness.admin(.put, "quotas/wunderground", body: #"{"key": "KEY", "used": {"day": 500}}"#).status == 200)
        let r = harness.answer("/api/KEY/conditions/q/CA/San_Francisco.json")
        #expect(r.status == 429)
        #expect(r.json["violated-policies"] as? [String] == ["day"])
        #expect(r.header("Retry-After") == "86400")
    }

    /// An unknown quota, bad JSON, an unknown policy or a clock moved backwards is a problem document,
    /// and leaves the quotas and the clock as they were.
    @Test func adminMistakesGetProblemJSONAndChangeNothing() throws {
        let harness = try EngineHarness(TempStubs(Self.stubs))
        let unknown = harness.admin(.put, "quotas/nope", body: #"{"used": {"day": 1}}"#)
        #expect(unknown.status == 404)
        #expect((unknown.json["detail"] as? String)?.contains("quotas: wunderground") == true)
        let badJSON = harness.admin(.put, "quotas/wunderground", body: "{used:")
        #expect(badJSON.status == 400)
        let badPolicy = harness.admin(.put, "quotas/wunderground", body: #"{"used": {"week": 1}}"#)
        #expect(badPolicy.status == 400)
        let badClock = harness.admin(.post, "clock/advance", body: #"{"seconds": -5}"#)
        #expect(badClock.status == 400)
        #expect(badClock.header("Content-Type") == "application/problem+json")
        let quotas = harness.admin(.get, "quotas").json["quotas"] as? [[String: Any]]
        #expect((quotas?.first?["keys"] as? [Any])?.isEmpty == true)
        #expect(harness.admin(.get, "clock").json["now"] as? String == "2016-08-30T00:00:00.000Z")
    }

    /// The clock's answer says what it is (frozen or running with the wall clock) and how far the
    /// admin API has moved it, not `"virtual": false` right after a move; a reset puts it back.
    @Test(arguments: [("clock: system\n", false), ("clock: { virtual: \"2016-08-30T00:00:00Z\" }\n", true)])
    func movingTheClockAnswersWhetherItIsFrozenAndHowFarItMoved(manifest: String, frozen: Bool) throws {
        let harness = try EngineHarness(TempStubs(["ok.json": "{}", "stubd.yml": manifest]))
        let moved = harness.admin(.post, "clock/advance", body: #"{"seconds": 61}"#)
        #expect(moved.status == 200)
        #expect(moved.json["frozen"] as? Bool == frozen, "\(moved.text)")
        #expect(moved.json["offsetSeconds"] as? Double == 61, "\(moved.text)")
        #expect(moved.json["virtual"] == nil, "\(moved.text)")
        let reset = harness.admin(.post, "reset", body: "{}")
        #expect(reset.status == 200)
        #expect(harness.admin(.get, "clock").json["offsetSeconds"] as? Double == 0)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing

/// Timed moves (issue 42): `scenarios: { order: { moves: [{ from: paid, after: 30s, to: shipped }] } }`
/// moves a scenario (each key of a keyed one) on the session's clock, so a test advances the
/// virtual clock instead of sleeping.
/// A runtime stub joining a declared scenario, and a move on the system clock, with no socket:
/// ScenarioTimedMoveTests in StubdCoreTests.
/// What `check` refuses, with no server: ScenarioTimedMoveCheckTests.
@Suite struct ScenarioTimedMoveServerTests {
    static let manifest = ScenarioManifests.timedMoves

    private static func call(_ base: URL, _ path: String, _ method: String = "GET", _ body: String? = nil) async throws -> HTTPResult {
        try await http(URL(string: base.absoluteString + path)!, method: method, body: body,
                       headers: body == nil ? [:] : ["Content-Type": "application/json"])
    }

    private static func status(_ base: URL, _ path: String) async throws -> String? {
        try await call(base, path).json["status"] as? String
    }

    @Test func advancingTheVirtualClockTakesTheMovePerKey() async throws {
        let stubs = try TempStubs(["stubd.yml": Self.manifest])
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let base = server.baseURL
        let client = StubdClient(baseURL: base)
        #expect(try await Self.call(base, "/orders/17/pay", "POST", "{}").status == 200)
        #expect(try await Self.status(base, "/orders/17") == "paid")
        try await client.advanceClock(by: .seconds(29))
        #expect(try await Self.status(base, "/orders/17") == "paid", "29 s in: not yet")
        #expect(try await Self.call(base, "/orders/18/pay", "POST", "{}").status == 200, "18 is paid at 29 s")
        try await client.advanceClock(by: .seconds(1))
        #expect(try await Self.status(base, "/orders/17") == "shipped", "30 s after paying, 17 is shipped: the route for shipped answers")
        #expect(try await Self.status(base, "/orders/18") == "paid", "18 has its own 30 s")
        #expect(try await client.scenario("order").keys() == ["17": "shipped", "18": "paid"], "the admin API sees the move too")
        try await client.advanceClock(by: .seconds(2 * 3600))
        #expect(try await client.scenario("order").keys() == ["17": "delivered", "18": "delivered"],
                "one jump of the clock takes every move that came due, in turn")

        // An unkeyed scenario; another session's clock has not moved.
        #expect(try await Self.call(base, "/door", "POST", "{}").status == 204)
        #expect(try await Self.call(base, "/__s/b/door", "POST", "{}").status == 204)
        try await client.advanceClock(by: .seconds(10))
        #expect(try await Self.call(base, "/door").json["door"] as? String == "closed")
        #expect(try await Self.call(base, "/__s/b/door").json["door"] as? String == "open", "session b's clock stands still")

        // A state set through the admin API starts its time then.
        let b = client.sessionClient("b")
        try await b.scenario("order").set("paid", forKey: "9")
        try await b.advanceClock(by: .seconds(30))
        #expect(try await b.scenario("order").state(forKey: "9") == "shipped")
    }
}

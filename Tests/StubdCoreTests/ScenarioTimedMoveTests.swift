import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Timed moves (issue 42) answered by the engine with no socket (`EngineHarness`; these ran through
/// `stubd serve` before issue 59): a runtime stub joining a declared scenario takes its moves, and on
/// the system clock a move comes with real time. ScenarioTimedMoveServerTests in StubdServerTests
/// keeps the keyed moves StubdClient reads and `stubd check`.
@Suite struct ScenarioTimedMoveTests {
    /// ScenarioTimedMoveServerTests' manifest: an order's delivery moves per key, a door that closes 10 s after opening.
    static let manifest = ScenarioManifests.timedMoves

    private static func call(_ harness: EngineHarness, _ path: String, _ method: HTTPRequest.Method = .get, _ body: String = "") -> EngineAnswer {
        harness.answer(path, method: method, headers: body.isEmpty ? [:] : ["Content-Type": "application/json"], body: body)
    }

    /// A runtime stub (`POST /__stubd/stubs`) that joins a scenario `stubd.yml` declares takes that
    /// scenario's timed moves and `maxKeys`, as a route of the file would: the test adds a knock that
    /// opens the door, and the door still closes 10 s later.
    @Test func aRuntimeStubJoiningADeclaredScenarioTakesItsTimedMoves() throws {
        let harness = try EngineHarness(TempStubs(["stubd.yml": Self.manifest]))
        let added = harness.admin(.post, "stubs", body: """
            { "request": { "method": "POST", "path": "/knock" }, "response": { "status": 204 },
              "scenario": "door", "thenState": "open" }
            """)
        #expect(added.status == 201, "\(added.text)")
        let porch = harness.admin(.post, "stubs", body: """
            { "request": { "path": "/porch" }, "response": { "json": { "porch": "dark" } },
              "scenario": "door", "whenState": "closed" }
            """)
        #expect(porch.status == 201, "\(porch.text)")
        #expect(Self.call(harness, "/knock", .post, "{}").status == 204)
        #expect(Self.call(harness, "/porch").status == 404, "the door is open: the porch route waits for closed")
        #expect(harness.admin(.post, "clock/advance", body: #"{"seconds": 10}"#).status == 200)
        // Read first by the runtime stub: its own step must carry the door's moves to see the door closed.
        let after = Self.call(harness, "/porch")
        #expect(after.status == 200 && after.json["porch"] as? String == "dark",
                "the door's move (open, 10 s, closed) is taken when a runtime stub reads the state: \(after.status) \(after.text)")
        #expect(Self.call(harness, "/door").json["door"] as? String == "closed")
    }

    /// Without a virtual clock the move comes with real time.
    @Test func withTheSystemClockTheMoveComesInRealTime() async throws {
        let manifest = Self.manifest.replacingOccurrences(of: #"clock: { virtual: "2026-01-01T00:00:00Z" }"#, with: "clock: system")
            .replacingOccurrences(of: "after: 10s", with: "after: 1s")
        let harness = try EngineHarness(TempStubs(["stubd.yml": manifest]))
        #expect(Self.call(harness, "/door", .post, "{}").status == 204)
        try await Task.sleep(for: .milliseconds(1200))
        #expect(Self.call(harness, "/door").json["door"] as? String == "closed")
    }
}

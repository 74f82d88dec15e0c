import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Scenarios keyed by a request value (issue 42), answered by the engine with no socket
/// (`EngineHarness`; this ran through `stubd serve` before issue 59): a scenario's `maxKeys` cap.
/// ScenarioKeyServerTests in StubdServerTests keeps the keyed flow StubdClient reads, racing
/// payments and `stubd check`.
@Suite struct ScenarioKeyAnswerTests {
    /// ScenarioKeyServerTests' manifest: an order's state per path id, `maxKeys: 3`.
    static let manifest = ScenarioManifests.keyedOrders

    private static func call(_ harness: EngineHarness, _ path: String, _ method: HTTPRequest.Method = .get, _ body: String = "") -> EngineAnswer {
        harness.answer(path, method: method, headers: body.isEmpty ? [:] : ["Content-Type": "application/json"], body: body)
    }

    /// `maxKeys: 3`: a fourth key out of Started is refused with a 507 that names the cap, where it
    /// is set and what to do; nothing moves. A key back in Started frees its place.
    @Test func aScenarioHoldsNoMoreKeysThanItsCap() throws {
        let harness = try EngineHarness(TempStubs(["stubd.yml": Self.manifest]))
        for id in 1...3 { #expect(Self.call(harness, "/orders/\(id)/pay", .post, "{}").status == 200) }
        let full = Self.call(harness, "/orders/4/pay", .post, "{}")
        #expect(full.status == 507, "\(full.text)")
        #expect(full.text.contains("scenario 'order' already holds 3 keys out of Started in this session, its cap (maxKeys at stubd.yml:2:21)"),
                "\(full.text)")
        #expect(Self.call(harness, "/orders/4").json["status"] as? String == "open", "nothing moved")
        let setFull = harness.admin(.put, "scenarios/order", body: #"{"state": "paid", "key": "4"}"#)
        #expect(setFull.status == 507, "the admin API keeps the same cap: \(setFull.text)")
        #expect(harness.admin(.put, "scenarios/order", body: #"{"state": "Started", "key": "1"}"#).status == 200)
        #expect(Self.call(harness, "/orders/4/pay", .post, "{}").status == 200, "key 1 back in Started freed a place")
    }
}

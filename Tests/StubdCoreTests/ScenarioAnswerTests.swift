import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Scenarios (issue 42): routes that answer in a state of a named state machine and move it, per
/// session, answered by the engine with no socket (`EngineHarness`; these ran through `stubd serve`
/// before issue 59). Sessions named by the URL's `/__s/` prefix: ScenarioSessionAnswerTests.
/// ScenarioServerTests in StubdServerTests keeps StubdClient's scenario calls and racing clients;
/// ScenarioCheckCommandTests the `stubd` commands.
@Suite struct ScenarioAnswerTests {
    /// ScenarioServerTests' manifest: a cart that fills and is paid, and a status route whose
    /// template reads the cart's state and the notes resource.
    static let manifest = ScenarioManifests.cartFlow

    static func harness() throws -> EngineHarness { try EngineHarness(TempStubs(["stubd.yml": manifest])) }

    private static func call(_ harness: EngineHarness, _ path: String, _ method: HTTPRequest.Method = .get, _ body: String = "",
                             session: String = "") -> EngineAnswer {
        harness.answer(path, method: method, headers: body.isEmpty ? [:] : ["Content-Type": "application/json"], body: body, session: session)
    }

    private func items(_ harness: EngineHarness, session: String = "") -> [String]? {
        Self.call(harness, "/cart", session: session).json["items"] as? [String]
    }

    /// Started answers the empty cart; adding moves it to has-item, where it stays while answered;
    /// paying moves it on, and the miss in paid says why no route answers.
    @Test func aTypicalFlowMovesTheStateAndTheNextRequestIsAnsweredInIt() throws {
        let harness = try Self.harness()
        #expect(items(harness) == [], "Started: the empty cart")
        let added = Self.call(harness, "/cart", .post, "{}")
        #expect(added.status == 201, "\(added.text)")
        #expect(items(harness) == ["tea"], "has-item: the cart with the item")
        #expect(items(harness) == ["tea"], "answering in a state does not move it")

        let report = harness.admin(.get, "scenarios")
        let cart = (report.json["scenarios"] as? [[String: Any]])?.first
        #expect(cart?["name"] as? String == "cart" && cart?["state"] as? String == "has-item", "\(report.text)")
        #expect(cart?["states"] as? [String] == ["Started", "has-item", "paid"], "\(report.text)")

        let paid = Self.call(harness, "/pay", .post, "{}")
        #expect(paid.status == 200, "\(paid.text)")
        let again = Self.call(harness, "/pay", .post, "{}")
        #expect(again.status == 409, "paid: the route for has-item steps aside, the fallback answers: \(again.text)")
        let cartNow = Self.call(harness, "/cart")
        #expect(cartNow.status == 404 && cartNow.text.contains("answers only in scenario cart's state"),
                "no route answers GET /cart in paid, and the miss says why: \(cartNow.text)")
    }

    /// Another route's answer tells of the session's state: a scenario's, a resource's items.
    @Test func aTemplateReadsAScenariosStateAndAResourcesItems() throws {
        let harness = try Self.harness()
        let before = Self.call(harness, "/status", session: "t")
        #expect(before.json["cart"] as? String == "Started" && before.json["notes"] as? String == "0", "\(before.text)")
        #expect(Self.call(harness, "/cart", .post, "{}", session: "t").status == 201)
        #expect(Self.call(harness, "/notes", .post, #"{"text": "a"}"#, session: "t").status == 201)
        #expect(Self.call(harness, "/notes", .post, #"{"text": "b"}"#, session: "t").status == 201)
        let after = Self.call(harness, "/status", session: "t")
        #expect(after.json["cart"] as? String == "has-item" && after.json["notes"] as? String == "2" && after.json["texts"] as? String == "a;b;",
                "\(after.text)")
        let other = Self.call(harness, "/status", session: "u")
        #expect(other.json["cart"] as? String == "Started" && other.json["notes"] as? String == "0", "another session's: \(other.text)")
    }
}

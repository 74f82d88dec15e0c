import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing
import HTTPTypes
import StubdProtocol

/// Scenarios (issue 42) as `stubd routes` shows them and `stubd check` refuses them, run as a user
/// would; no server started. Split from ScenarioServerTests.
@Suite struct ScenarioCheckCommandTests {
    /// `stubd routes` shows each route's scenario: its state before and after (`*`: any state).
    @Test func stubdRoutesShowsEachRoutesScenario() throws {
        let r = try run(stubdBinary.path, ["routes", "--stubs", try ScenarioServerTests.stubs().url.path])
        #expect(r.status == 0, "\(r.error)")
        let lines = r.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("SCENARIO") == true, "\(r.output)")
        #expect(lines.contains { $0.contains("empty-cart") && $0.contains("cart: Started ") }, "\(r.output)")
        #expect(lines.contains { $0.contains("add-item") && $0.contains("cart: * -> has-item") }, "\(r.output)")
        #expect(lines.contains { $0.contains("pay ") && $0.contains("cart: has-item -> paid") }, "\(r.output)")
        let keyed = try TempStubs(["stubd.yml": "routes:\n" + ScenarioRoutes.anyOrderPay(key: "id")])
        let k = try run(stubdBinary.path, ["routes", "--stubs", keyed.url.path])
        #expect(k.output.contains("order[path id]: * -> paid"), "\(k.output)")
    }

    @Test func checkNamesAStateNoRouteEntersAndAStateWithoutAScenario() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { method: POST, path: /cart }
                response: { status: 201 }
                scenario: cart
                thenState: has-item
              - request: { path: /cart }
                response: { json: { items: [tea] } }
                scenario: cart
                whenState: has_item
              - request: { path: /orders }
                response: { status: 200 }
                thenState: paid
            """])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status != 0)
        let text = r.output + r.error
        #expect(text.contains("stubd.yml:9:16: scenario 'cart' never enters state 'has_item'") && text.contains("did you mean 'has-item'?"),
                "the misspelt state, where it is written: \(text)")
        #expect(text.contains("stubd.yml:5:16: scenario 'cart' moves into state 'has-item', which no route answers in"), "\(text)")
        #expect(text.contains("stubd.yml:12:16: 'thenState' needs a 'scenario'"), "\(text)")
        #expect(!text.contains("can never match"), "a route answering in a state leaves the others with the same request their turn: \(text)")
    }
}

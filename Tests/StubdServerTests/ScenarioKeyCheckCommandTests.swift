import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing

/// A scenario keyed by a request value the route cannot carry, named by `stubd check` where it is
/// written (issue 42); no server started. Split from ScenarioKeyServerTests.
@Suite struct ScenarioKeyCheckCommandTests {
    @Test func checkNamesABadKeyWhereItIsWritten() throws {
        let stubs = try TempStubs(["stubd.yml": "routes:\n" + ScenarioRoutes.anyOrderPay(key: "orderId") + """
              - request: { path: "/orders/{id}" }
                response: { status: 200 }
                scenario: order
                whenState: paid
              - request: { path: /track }
                response: { status: 200 }
                scenario: parcel
                scenarioKey: { qurey: order }
              - request: { path: /refund }
                response: { status: 200 }
                scenario: refund
                scenarioKey: { jsonPath: orderId }
            """])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        let text = r.output + r.error
        #expect(r.status != 0, "\(text)")
        #expect(text.contains("stubd.yml:5:26: scenarioKey { path: orderId }: the route's path has no {orderId} segment")
                && text.contains("{ path: id }"), "\(text)")
        #expect(text.contains("stubd.yml:14:20: unknown scenarioKey 'qurey'") && text.contains("did you mean 'query'?"), "\(text)")
        #expect(text.contains("stubd.yml:18:30: scenarioKey { jsonPath: orderId } is not a JSONPath"), "\(text)")
        let unkeyed = try TempStubs(["stubd.yml": "routes:\n" + ScenarioRoutes.anyOrderPay(key: "id") + """
              - request: { path: /orders }
                response: { status: 200 }
                scenario: order
                whenState: paid
            """])
        let u = try run(stubdBinary.path, ["check", "--stubs", unkeyed.url.path])
        let said = u.output + u.error
        #expect(u.status != 0 && said.contains("stubd.yml:9:15: scenario 'order' keeps a state per key (scenarioKey at line 5), but this route gives no scenarioKey"),
                "\(said)")
    }
}

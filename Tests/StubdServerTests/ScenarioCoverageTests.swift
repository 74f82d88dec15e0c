import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// Coverage counts scenario states reached and transitions taken (issue 42): a flow driven over
/// HTTP through part of its transitions is reported as exactly that part, in the JSON of
/// `GET /__stubd/coverage` and in every format of `stubd coverage`, and merged shards add up.
@Suite struct ScenarioCoverageTests {
    static let manifest = ScenarioRoutes.deliveryMoves("cart") + "routes:\n" + ScenarioRoutes.cart(added: "{ status: 201 }") + ScenarioRoutes.pay + """
          - name: empty
            request: { method: DELETE, path: /cart }
            response: { status: 204 }
            scenario: cart
            whenState: has-item
            thenState: Started

        """ + ScenarioRoutes.orderPay(name: "order-pay") + """
          - name: refund
            request: { method: POST, path: "/orders/{id}/refund" }
            response: { status: 201 }
            scenario: order
            scenarioKey: { path: id }
            whenState: paid
            thenState: refunded
        """

    /// What no test reached: the flow below never empties the cart, never waits the hour to
    /// `delivered`, and never refunds an order.
    static let untaken: Set<String> = [
        "scenario cart: state delivered", "scenario cart: transition has-item -> Started",
        "scenario cart: transition shipped -> delivered after 1h",
        "scenario order: state refunded", "scenario order: transition paid -> refunded",
    ]

    private static func call(_ base: URL, _ path: String, _ method: String = "GET", _ body: String? = nil) async throws -> Int {
        try await http(URL(string: base.absoluteString + path)!, method: method, body: body).status
    }

    private static func coverage(_ base: URL, _ session: String? = nil) async throws -> CoverageReport {
        let r = try await http(URL(string: base.absoluteString + (session.map { "/__s/\($0)" } ?? "") + "/__stubd/coverage")!)
        #expect(r.status == 200)
        return try JSONDecoder().decode(CoverageReport.self, from: r.body)
    }

    private static func ids(_ report: CoverageReport, covered: Bool) -> Set<String> {
        Set((report.scenarios ?? []).flatMap { s in s.items.filter { $0.isCovered == covered }.map { "\(s.label): \($0.id)" } })
    }

    private static func hits(_ report: CoverageReport, _ scenario: String) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: report.scenarios?.first { $0.scenario == scenario }?.items.map { ($0.id, $0.hits) } ?? [])
    }

    @Test func aFlowDrivenPartWayIsReportedAsExactlyTheStatesAndTransitionsItReached() async throws {
        let stubs = try TempStubs(["stubd.yml": Self.manifest])
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let base = server.baseURL
        // Session a: look at the empty cart, add, pay, then 30 s pass on its clock (nobody reads
        // the state after: the report takes the timed move that came due). Two orders are paid.
        #expect(try await Self.call(base, "/__s/a/cart") == 200)
        #expect(try await Self.call(base, "/__s/a/cart", "POST") == 201)
        #expect(try await Self.call(base, "/__s/a/pay", "POST") == 200)
        #expect(try await Self.call(base, "/__s/a/__stubd/clock/advance", "POST", #"{"seconds": 30}"#) == 200)
        #expect(try await Self.call(base, "/__s/a/orders/17/pay", "POST") == 200)
        #expect(try await Self.call(base, "/__s/a/orders/18/pay", "POST") == 200)
        // A reset of the states is no reset of what coverage counted.
        #expect(try await Self.call(base, "/__s/a/__stubd/scenarios/reset", "POST") == 200)
        // Session b adds to its cart and is reset: the whole server keeps what it counted.
        #expect(try await Self.call(base, "/__s/b/cart", "POST") == 201)
        #expect(try await Self.call(base, "/__s/b/__stubd/reset", "POST") == 200)

        let whole = try await Self.coverage(base)
        #expect(Self.ids(whole, covered: false) == Self.untaken)
        #expect(Self.ids(whole, covered: true) == [
            "scenario cart: state has-item", "scenario cart: state paid", "scenario cart: state shipped",
            "scenario cart: transition * -> has-item", "scenario cart: transition has-item -> paid",
            "scenario cart: transition paid -> shipped after 30s",
            "scenario order: state paid", "scenario order: transition Started -> paid",
        ])
        #expect(Self.hits(whole, "cart")["state has-item"] == 2, "session b's move, retired by its reset, still counts")
        #expect(Self.hits(whole, "cart")["transition * -> has-item"] == 2)
        #expect(Self.hits(whole, "order")["transition Started -> paid"] == 2, "one scenario, whatever the key")
        let order = try #require(whole.scenarios?.first { $0.scenario == "order" })
        #expect(order.keyedBy == "path id")
        #expect(order.keys == 2)
        #expect(whole.scenarios?.first { $0.scenario == "cart" }?.keys == nil)
        // Scenario items are items of the summary: 4 of the 6 routes' answers, and 8 of 13 scenario items.
        #expect(whole.summary.items == 6 + 13)
        #expect(whole.summary.covered == 4 + 8)

        let a = try await Self.coverage(base, "a")
        #expect(Self.hits(a, "cart")["state has-item"] == 1)
        #expect(Self.ids(try await Self.coverage(base, "b"), covered: true).isEmpty, "a reset session starts over")

        // The assertion names each, and `except:` takes a scenario or one of its items.
        let message = try #require(whole.uncoveredMessage(except: ["scenario order", "scenario cart: state delivered"]))
        #expect(message.contains("4 of 19 stub items never reached"), "routes empty and refund, and two of cart: \(message)")
        #expect(message.contains("no test took the transition has-item → Started (route empty) of scenario cart: send DELETE /cart (route empty) while scenario cart is in 'has-item'"), "\(message)")
        #expect(message.contains("no test took the transition shipped → delivered after 1h (timed move) of scenario cart: once scenario cart is in 'shipped', move the session's clock on 1h (`POST /__stubd/clock/advance` {\"seconds\": 3600})"), "\(message)")

        // `stubd coverage`: the table lists them first, JUnit and CTRF fail (or skip) them.
        let table = try run(stubdBinary.path, ["coverage", "--url", base.absoluteString])
        #expect(table.status == 0, "\(table.error)")
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("-  scenario ") }.count == 5, "\(table.output)")
        #expect(lines.contains { $0.hasPrefix("-  scenario order") && $0.contains("state 'refunded'") && $0.contains("send POST /orders/{id}/refund (route refund) for one key (its path id) while scenario order is in 'paid'") }, "\(table.output)")
        #expect(lines.contains { $0.hasPrefix("+  scenario cart") && $0.contains("paid → shipped after 30s (timed move)") }, "\(table.output)")
        #expect(table.output.contains("scenarios: 4 of 6 states reached, 4 of 7 transitions taken, 2 keys moved out of Started"), "\(table.output)")

        for (mode, element) in [("failure", "failure"), ("skipped", "skipped")] {
            let r = try run(stubdBinary.path, ["coverage", "--url", base.absoluteString, "--format", "junit", "--uncovered", mode])
            #expect(r.status == 0, "\(r.error)")
            let root = try #require(try XMLDocument(data: Data(r.output.utf8)).rootElement())
            let suites = root.elements(forName: "testsuite").filter { $0.attribute(forName: "name")?.stringValue?.hasPrefix("scenario ") == true }
            #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["scenario cart", "scenario order"])
            let failing = suites.flatMap { $0.elements(forName: "testcase") }.filter { !$0.elements(forName: element).isEmpty }
            #expect(Set(failing.map { "\($0.attribute(forName: "classname")?.stringValue ?? ""): \($0.attribute(forName: "name")?.stringValue ?? "")" }) == [
                "scenario cart: state 'delivered'", "scenario cart: has-item → Started (route empty)",
                "scenario cart: shipped → delivered after 1h (timed move)",
                "scenario order: state 'refunded'", "scenario order: paid → refunded (route refund)",
            ])
            #expect(root.attribute(forName: mode == "failure" ? "failures" : "skipped")?.stringValue == String(19 - 12))
        }

        let ctrf = try run(stubdBinary.path, ["coverage", "--url", base.absoluteString, "--format", "ctrf", "--uncovered", "skipped"])
        #expect(ctrf.status == 0, "\(ctrf.error)")
        guard case .object(let top) = try JSONParser.parse(Data(ctrf.output.utf8)), case .object(let results)? = top["results"],
              case .array(let tests)? = results["tests"] else { Issue.record("no results.tests"); return }
        let skipped = tests.compactMap { test -> String? in
            guard case .object(let t) = test, t["status"] == .string("skipped"), case .string(let name)? = t["name"],
                  name.hasPrefix("scenario ") else { return nil }
            return name
        }
        #expect(Set(skipped) == ["scenario cart: state 'delivered'", "scenario cart: has-item → Started (route empty)",
                                 "scenario cart: shipped → delivered after 1h (timed move)",
                                 "scenario order: state 'refunded'", "scenario order: paid → refunded (route refund)"])

        // Merged shards add up item by item, keys too.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-coverage-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(whole).write(to: file)
        let merged = try run(stubdBinary.path, ["coverage", "merge", file.path, file.path])
        #expect(merged.status == 0, "\(merged.error)")
        let both = try JSONDecoder().decode(CoverageReport.self, from: Data(merged.output.utf8))
        #expect(Self.hits(both, "cart")["state has-item"] == 4)
        #expect(both.scenarios?.first { $0.scenario == "order" }?.keys == 4)
        #expect(Self.ids(both, covered: false) == Self.untaken)
    }
}

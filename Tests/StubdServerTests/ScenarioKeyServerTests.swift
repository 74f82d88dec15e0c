import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing

/// Scenarios keyed by a request value (issue 42): one state per order id, read from a path
/// parameter, a query value, a header or a JSON body field, driven through `stubd serve`.
/// The `maxKeys` cap, with no socket: ScenarioKeyAnswerTests in StubdCoreTests.
/// `check` naming a bad key, with no server: ScenarioKeyCheckCommandTests.
@Suite struct ScenarioKeyServerTests {
    static let manifest = ScenarioManifests.keyedOrders

    private static func call(_ base: URL, _ path: String, _ method: String = "GET", _ body: String? = nil) async throws -> HTTPResult {
        try await http(URL(string: base.absoluteString + path)!, method: method, body: body,
                       headers: body == nil ? [:] : ["Content-Type": "application/json"])
    }

    @Test func payingOneOrderMovesItsStateAndLeavesTheOthersInStarted() async throws {
        let stubs = try TempStubs(["stubd.yml": Self.manifest])
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let base = server.baseURL
        #expect(try await Self.call(base, "/orders/17").json["status"] as? String == "open")
        let paid = try await Self.call(base, "/orders/17/pay", "POST", "{}")
        #expect(paid.status == 200, "\(paid.text)")
        #expect(try await Self.call(base, "/orders/17").json["status"] as? String == "paid", "17 moved")
        #expect(try await Self.call(base, "/orders/18").json["status"] as? String == "open", "18 stays in Started")
        #expect(try await Self.call(base, "/orders/17/pay", "POST", "{}").status == 409, "17 is paid: the fallback answers")
        #expect(try await Self.call(base, "/orders/18/pay", "POST", "{}").status == 200, "18 still pays once")

        // A JSON body field and a query value name the same key in other routes.
        #expect(try await Self.call(base, "/refunds", "POST", #"{"orderId": 17}"#).status == 201, "a number reads as its digits")
        #expect(try await Self.call(base, "/refunds", "POST", #"{"orderId": 19}"#).status == 404, "19 is not paid")
        let noKey = try await Self.call(base, "/refunds", "POST", #"{"other": 1}"#)
        #expect(noKey.status == 404 && noKey.text.contains("per jsonPath $.orderId, which this request does not carry"), "\(noKey.text)")
        #expect(try await Self.call(base, "/track?order=17").json["tracked"] as? Bool == true)
        #expect(try await Self.call(base, "/track?order=18").status == 404, "18 is paid, not refunded")

        // Another route's template reads a key's state.
        let summary = try await Self.call(base, "/summary/18")
        #expect(summary.json["state"] as? String == "paid", "\(summary.text)")
        #expect(try await Self.call(base, "/summary/99").json["state"] as? String == "Started")

        // The admin API lists the keys out of Started, and sets one.
        let report = try await Self.call(base, "/__stubd/scenarios/order")
        #expect(report.status == 200 && report.json["keyedBy"] as? String == "path id", "\(report.text)")
        #expect(report.json["keys"] as? [String: String] == ["17": "refunded", "18": "paid"], "\(report.text)")
        let set = try await Self.call(base, "/__stubd/scenarios/order", "PUT", #"{"state": "paid", "key": "20"}"#)
        #expect(set.status == 200, "\(set.text)")
        #expect(try await Self.call(base, "/orders/20").json["status"] as? String == "paid")
        let withoutKey = try await Self.call(base, "/__stubd/scenarios/order", "PUT", #"{"state": "paid"}"#)
        #expect(withoutKey.status == 400 && withoutKey.text.contains("keeps a state per path id"), "\(withoutKey.text)")

        // From Swift, in a session of its own.
        let session = StubdClient(baseURL: base).sessionClient("swift")
        let order = session.scenario("order")
        #expect(try await Self.call(base, "/__s/swift/orders/5/pay", "POST", "{}").status == 200)
        #expect(try await order.state(forKey: "5") == "paid")
        #expect(try await order.state(forKey: "17") == "Started", "the default session's keys are its own")
        try await order.set("refunded", forKey: "6")
        #expect(try await order.keys() == ["5": "paid", "6": "refunded"])
        #expect(try await order.stateMismatch(expected: "paid", key: "5") == nil)
        let mismatch = try await order.stateMismatch(expected: "paid", key: "6")
        #expect(mismatch?.contains("Expected scenario order key '6' in state 'paid', but it is in 'refunded'") == true, "\(mismatch ?? "nil")")
        try await session.resetScenarios()
        #expect(try await order.keys() == [:])
    }

    /// Parallel payments of several orders: each order's move is taken exactly once.
    @Test func racingPaymentsMoveEachKeyExactlyOnce() async throws {
        let stubs = try TempStubs(["stubd.yml": Self.manifest.replacingOccurrences(of: "maxKeys: 3", with: "maxKeys: 100")])
        let server = try ServeProcess(["--stubs", stubs.url.path, "--threads", "8"])
        let base = server.baseURL
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for id in 0..<6 { for _ in 0..<8 { group.addTask { (id, try await Self.call(base, "/orders/\(id)/pay", "POST", "{}").status) } } }
            return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }
        for id in 0..<6 {
            let statuses = results.filter { $0.0 == id }.map(\.1)
            #expect(statuses.filter { $0 == 200 }.count == 1 && statuses.filter { $0 == 409 }.count == 7, "order \(id): \(statuses)")
        }
        let hits = try await Self.call(base, "/__stubd/hits?route=pay")
        #expect(hits.json["hits"] as? Int == 6, "\(hits.text)")
    }
}

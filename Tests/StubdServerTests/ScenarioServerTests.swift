import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing
import HTTPTypes
import StubdProtocol

/// Scenarios (issue 42): routes that answer in a state of a named state machine and move it, per
/// session, driven through `stubd serve` over its socket as an app and a test would.
/// What the engine decides of a flow and what a template reads of it, with no socket:
/// ScenarioAnswerTests in StubdCoreTests; each session's own state and its resets: ScenarioSessionAnswerTests.
/// `routes` and `check`, which start no server: ScenarioCheckCommandTests.
@Suite struct ScenarioServerTests {
    static let manifest = ScenarioManifests.cartFlow

    static func stubs() throws -> TempStubs { try TempStubs(["stubd.yml": manifest]) }

    private static func call(_ base: URL, _ path: String, _ method: String = "GET", _ body: String? = nil) async throws -> HTTPResult {
        try await http(URL(string: base.absoluteString + path)!, method: method, body: body,
                       headers: body == nil ? [:] : ["Content-Type": "application/json"])
    }

    private func items(_ base: URL, _ prefix: String = "") async throws -> [String]? {
        try await Self.call(base, prefix + "/cart").json["items"] as? [String]
    }

    @Test func anAdminCallOrTheSwiftClientPutsAScenarioInAState() async throws {
        let server = try ServeProcess(["--stubs", try Self.stubs().url.path])
        let base = server.baseURL
        let set = try await Self.call(base, "/__s/t/__stubd/scenarios/cart", "PUT", #"{"state": "has-item"}"#)
        #expect(set.status == 200 && set.json["state"] as? String == "has-item", "\(set.text)")
        #expect(try await items(base, "/__s/t") == ["tea"])
        let unknownState = try await Self.call(base, "/__stubd/scenarios/cart", "PUT", #"{"state": "shipped"}"#)
        #expect(unknownState.status == 400 && unknownState.text.contains("Started, has-item, paid"), "\(unknownState.text)")
        let unknownScenario = try await Self.call(base, "/__stubd/scenarios/basket", "PUT", #"{"state": "paid"}"#)
        #expect(unknownScenario.status == 404 && unknownScenario.text.contains("cart"), "\(unknownScenario.text)")

        let session = StubdClient(baseURL: base).sessionClient("swift")
        let cart = session.scenario("cart")
        #expect(try await cart.state() == "Started")
        try await cart.set("has-item")
        #expect(try await cart.state() == "has-item")
        #expect(try await Self.call(base, "/__s/swift/pay", "POST", "{}").status == 200)
        #expect(try await cart.state() == "paid", "the request moved it")
        await #expect(throws: StubdError.self) { try await cart.set("shipped") }
        try await session.resetScenarios()
        #expect(try await cart.state() == "Started")
        #expect(try await StubdClient(baseURL: base).scenario("cart").state() == "Started", "the default session's own")

        // A runtime stub takes the same keys; its scenario joins the session's list.
        let runtime = try await Self.call(base, "/__s/swift/__stubd/stubs", "POST",
                                          #"{"request": {"path": "/door"}, "response": {"status": 200}, "scenario": "door", "whenState": "Started", "thenState": "open"}"#)
        #expect(runtime.status == 201, "\(runtime.text)")
        #expect(try await Self.call(base, "/__s/swift/door").status == 200)
        #expect(try await session.scenario("door").state() == "open")
        #expect(try await session.scenario("door").states() == ["Started", "open"])
        #expect(try await Self.call(base, "/__s/swift/door").status == 404, "in open, the runtime stub steps aside")

        // StubRoute says the same from Swift.
        _ = try await session.addStub(StubRoute(.post("/lamp"), response: .status(204)).inScenario("lamp", when: "Started", then: "on"))
        #expect(try await Self.call(base, "/__s/swift/lamp", "POST", "{}").status == 204)
        #expect(try await session.scenario("lamp").state() == "on")
        #expect(try await Self.call(base, "/__s/swift/lamp", "POST", "{}").status == 404, "in on, it steps aside")

        // And a keyed one: each order's state apart, as `scenarioKey: { path: id }` in a manifest.
        _ = try await session.addStub(StubRoute(.post("/parcels/{id}/ship"), response: .status(204))
            .inScenario("parcel", key: .path("id"), when: "Started", then: "shipped"))
        #expect(try await Self.call(base, "/__s/swift/parcels/7/ship", "POST", "{}").status == 204)
        #expect(try await Self.call(base, "/__s/swift/parcels/8/ship", "POST", "{}").status == 204, "8 has a state of its own")
        #expect(try await Self.call(base, "/__s/swift/parcels/7/ship", "POST", "{}").status == 404, "7 is shipped: the route steps aside")
        #expect(try await session.scenario("parcel").keys() == ["7": "shipped", "8": "shipped"])
    }

    /// Many requests racing on one transition: exactly one takes it (the route answering in
    /// has-item), the others find the state moved and are answered by the fallback.
    @Test func racingRequestsTakeOneTransitionExactlyOnce() async throws {
        let server = try ServeProcess(["--stubs", try Self.stubs().url.path, "--threads", "8"])
        let base = server.baseURL
        for round in 0..<5 {
            let prefix = "/__s/race\(round)"
            #expect(try await Self.call(base, prefix + "/cart", "POST", "{}").status == 201)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<24 { group.addTask { try await Self.call(base, prefix + "/pay", "POST", "{}").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1 && statuses.filter { $0 == 409 }.count == 23, "round \(round): \(statuses)")
            let hits = try await Self.call(base, prefix + "/__stubd/hits?route=pay")
            #expect(hits.json["hits"] as? Int == 1, "\(hits.text)")
        }
    }

    /// A state no route moves into, declared under `scenarios:` as one a test sets: check accepts
    /// it, and a test reaches it through the admin API. A declared scenario no route names is an error.
    @Test func aStateOnlyATestSetsIsDeclared() async throws {
        let manifest = """
            scenarios:
              order: [shipped]
            routes:
              - request: { path: /order }
                response: { json: { status: shipped } }
                scenario: order
                whenState: shipped
            """
        let stubs = try TempStubs(["stubd.yml": manifest])
        let checked = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(checked.status == 0, "\(checked.output) \(checked.error)")
        let server = try ServeProcess(["--stubs", stubs.url.path])
        #expect(try await Self.call(server.baseURL, "/order").status == 404, "Started: no route answers")
        #expect(try await Self.call(server.baseURL, "/__stubd/scenarios/order", "PUT", #"{"state": "shipped"}"#).status == 200)
        #expect(try await Self.call(server.baseURL, "/order").json["status"] as? String == "shipped")

        let undeclared = try TempStubs(["stubd.yml": manifest.replacingOccurrences(of: "  order: [shipped]", with: "  ordr: [shipped]")])
        let r = try run(stubdBinary.path, ["check", "--stubs", undeclared.url.path])
        let text = r.output + r.error
        #expect(r.status != 0 && text.contains("stubd.yml:2:3: scenarios names 'ordr', but no route gives scenario: ordr"), "\(text)")
        #expect(text.contains("scenarios: { order: [shipped] }"), "the hint says how to declare it: \(text)")
    }
}

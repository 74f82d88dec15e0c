import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// Scenarios (issue 42) per session: each session's state its own, `scenarios/reset` and a session
/// reset bringing back Started. What the engine keeps, through `EngineHarness` (which routes
/// `/__s/ID/…` and `?session=` as the front does) with no socket. Moved from ScenarioServerTests
/// (StubdServerTests), which keeps StubdClient's scenario calls and racing clients.
@Suite struct ScenarioSessionAnswerTests {
    /// A body goes as `application/json`, as the server suite's requests sent it.
    private static func call(_ server: EngineHarness, _ target: String, _ method: String = "GET", _ body: String? = nil) -> EngineAnswer {
        server.http(target, method: method, body: body, headers: body == nil ? [:] : ["Content-Type": "application/json"])
    }

    private func items(_ server: EngineHarness, _ prefix: String = "") -> [String]? {
        Self.call(server, prefix + "/cart").json["items"] as? [String]
    }

    @Test func eachSessionHasItsOwnStateAndResetsBringBackStarted() throws {
        let server = try EngineHarness(try TempStubs(["stubd.yml": ScenarioManifests.cartFlow]))
        #expect(Self.call(server, "/__s/a/cart", "POST", "{}").status == 201)
        #expect(items(server, "/__s/a") == ["tea"])
        #expect(items(server, "/__s/b") == [], "b's cart stays empty")
        #expect(items(server) == [], "so does the default session's")

        let reset = Self.call(server, "/__s/a/__stubd/scenarios/reset", "POST", "{}")
        #expect(reset.status == 200 && reset.text.contains("Started"), "\(reset.text)")
        #expect(items(server, "/__s/a") == [], "scenarios/reset: Started again")

        #expect(Self.call(server, "/__s/a/cart", "POST", "{}").status == 201)
        #expect(Self.call(server, "/__stubd/reset?session=a", "POST", "{}").status == 200)
        #expect(items(server, "/__s/a") == [], "a session reset resets its scenarios")
    }
}

import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// The admin API's calls are one typed list (`AdminEndpoint`, StubdProtocol) that the server routes on
/// and StubdClient builds its requests from; answered by the engine's admin API here, as the server
/// routes them (`EngineHarness`).
@Suite struct AdminEndpointTests {
    static let stubs: [String: String] = ["ok.json": #"{"ok": true}"#]

    /// Each call parses back from the method and path it is made with: what the client sends is what
    /// the server routes.
    @Test func everyCallIsTheOneItsMethodAndPathMake() {
        let concrete: [AdminEndpoint] = AdminEndpoint.every + [.resourceItems("todos"), .webSocketMessages("GET /rooms/lobby"), .pushWebSocketMessage("chat"), .setScenario("cart"), .removeStub(id: "s1"), .fillQuota("daily"),
                                                               .dashboard(file: "dashboard.js")]
        for endpoint in concrete {
            #expect(AdminEndpoint(method: endpoint.method, call: endpoint.path) == endpoint, "\(endpoint)")
        }
        #expect(AdminEndpoint(method: .head, call: "health") == .health)
        #expect(AdminEndpoint(method: .get, call: "hits/") == .hits)
        #expect(AdminEndpoint(method: .put, call: "quotas/reset") == .fillQuota("reset"), "a quota may be called reset")
        #expect(AdminEndpoint(method: .get, call: "hits/wait/more") == nil)
    }

    /// A call that exists but not with this method is a 405 naming the methods it takes (it was a 404
    /// saying the call did not exist).
    @Test func aKnownCallWithAnotherMethodIsA405NamingTheMethodsItTakes() throws {
        try withEngine(try TempStubs(AdminEndpointTests.stubs).url) { server in
            for (method, call, allow) in [("DELETE", "hits", "GET"), ("POST", "prefer", "GET, PUT, DELETE"), ("GET", "reset", "POST"),
                                          ("PUT", "stubs", "GET, POST"), ("GET", "clock/advance", "POST")] {
                let r = server.http("/__stubd/" + call, method: method)
                #expect(r.status == 405, "\(method) \(call): \(r.status) \(r.text)")
                #expect(r.header("Allow") == allow, "\(method) \(call): \(r.headers)")
                #expect(r.json["detail"] as? String == "/__stubd/\(call) takes \(allow), not \(method)", "\(r.text)")
            }
            #expect(server.http("/__stubd/health", method: "HEAD").status == 200)
        }
    }

    /// A call that does not exist is a 404 listing every call there is, those with a name or id in them too.
    @Test func anUnknownCallIsA404ListingEveryCall() throws {
        try withEngine(try TempStubs(AdminEndpointTests.stubs).url) { server in
            let r = server.http("/__stubd/hitz")
            #expect(r.status == 404)
            let detail = r.json["detail"] as? String ?? ""
            #expect(detail.hasPrefix("GET /__stubd/hitz is not an admin call; calls: health, routes, "), "\(detail)")
            for path in ["hits/wait", "resources/{name}", "scenarios/{name}", "stubs/{id}", "quotas/{name}", "clock/set", "events", "ui"] {
                #expect(detail.contains(path), "\(detail) does not list \(path)")
            }
        }
    }
}

import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// What the engine answers a served folder with: routes matched on the query, a miss's problem naming
/// the nearest routes, 405 with Allow, the journal and its ring, health and routes. Moved from
/// ServingTests (StubdServerTests), which keeps what the wire carries.
@Suite struct ServedAnswerTests {
    @Test func manifestRoutesMatchOnQuery() throws {
        try withEngine(exampleStubs) { server in
            let london = server.get("/data/2.5/weather?q=London&appid=abc")
            #expect(london.status == 200)
            #expect(london.json["name"] as? String == "London")
            let missing = server.get("/data/2.5/weather?q=Atlantis&appid=abc")
            #expect(missing.status == 404)
            #expect(missing.json["message"] as? String == "city not found")
            #expect(server.get("/data/2.5/weather?q=London").status == 401)
        }
    }

    @Test func anUnmatchedRequestGetsProblemJSONNamingTheNearestRoute() throws {
        try withEngine(exampleStubs) { server in
            let r = server.get("/api/KEY/condition/q/CA/San_Francisco.json")
            #expect(r.status == 404)
            #expect(r.header("Content-Type") == "application/problem+json")
            #expect((r.json["detail"] as? String)?.contains("path segment 3 differs: 'condition' here, 'conditions' in the route") == true)
            let nearest = try #require(r.json["nearest"] as? [[String: Any]])
            #expect(nearest.first?["route"] as? String == "GET /api/{key}/conditions/q/CA/San_Francisco.json")
        }
    }

    /// Three named routes on one path: the 404 names each and the condition it failed, and a query
    /// name sent in another case says how to accept it.
    @Test func aMissNamesTheNearestRoutesAndTheConditionEachFailed() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - { name: london, request: { path: /data/2.5/weather, query: { q: London, appid: "*" } }, response: { status: 200 } }
              - { name: paris, request: { path: /data/2.5/weather, query: { q: Paris, appid: "*" } }, response: { status: 200 } }
              - { name: any-city, request: { path: /data/2.5/weather, query: { appid: "*" } }, response: { status: 404 } }
            """])
        try withEngine(stubs.url) { server in
            let r = server.get("/data/2.5/weather?q=Berlin&APPID=k")
            #expect(r.status == 404)
            let detail = try #require(r.json["detail"] as? String)
            let missing = "query parameter appid is missing (a parameter APPID was sent; set queryNames: any-case)"
            #expect(detail.contains("london (GET /data/2.5/weather) — query q is 'Berlin', expected 'London'"), "\(detail)")
            #expect(detail.contains("paris (GET /data/2.5/weather) — query q is 'Berlin', expected 'Paris'"), "\(detail)")
            #expect(detail.contains("any-city (GET /data/2.5/weather) — \(missing)"), "\(detail)")
            let nearest = try #require(r.json["nearest"] as? [[String: Any]])
            #expect(Set(nearest.compactMap { $0["name"] as? String }) == ["london", "paris", "any-city"])
        }
    }

    @Test func aPathOfAnotherMethodGets405WithAllow() throws {
        try withEngine(plainStubs) { server in
            let r = server.http("/plain/payload.json", method: "DELETE")
            #expect(r.status == 405)
            #expect(r.header("Allow") == "GET, HEAD, OPTIONS")
        }
    }

    @Test func theJournalRecordsMatchesAndNearMisses() throws {
        try withEngine(plainStubs) { server in
            _ = server.get("/plain/payload.json", headers: ["X-Trace": "one"])
            _ = server.get("/plain/payloads.json")
            let journal = server.get("/__stubd/requests?limit=10").json
            let requests = try #require(journal["requests"] as? [[String: Any]])
            #expect(requests.count == 2)
            #expect(requests[0]["route"] as? String == "GET /plain/payload.json")
            #expect((requests[0]["headers"] as? [String: String])?["X-Trace"] == "one")
            #expect(requests[1]["route"] is NSNull)
            #expect((requests[1]["nearest"] as? [String])?.first?.hasPrefix("GET /plain/payload.json") == true)
        }
    }

    @Test func theJournalIsABoundedRing() throws {
        try withEngine(plainStubs, journalCapacity: 5) { server in
            for i in 0..<12 { _ = server.get("/plain/payload.json?i=\(i)") }
            let journal = server.get("/__stubd/requests?limit=100").json
            let requests = try #require(journal["requests"] as? [[String: Any]])
            #expect(requests.count == 5)
            #expect((journal["total"] as? NSNumber)?.intValue == 12)
            #expect((requests.last?["query"] as? [String: String])?["i"] == "11")
        }
    }

    @Test func healthAndRoutes() throws {
        try withEngine(exampleStubs) { server in
            let health = server.get("/__stubd/health").json
            #expect(health["status"] as? String == "ok")
            #expect((health["routes"] as? NSNumber)?.intValue == server.engine.catalog.routes.count)
            let routes = try #require(server.get("/__stubd/routes").json["routes"] as? [[String: Any]])
            #expect(routes.contains { $0["name"] as? String == "london" && $0["source"] as? String == "stubd.yml:42" || $0["name"] as? String == "london" })
        }
    }
}

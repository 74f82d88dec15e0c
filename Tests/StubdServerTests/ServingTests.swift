import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Testing

@Suite struct ServingTests {
    @Test func servesTheExampleConditionsThroughURLSession() async throws {
        try await withServer(exampleStubs) { server in
            #expect(server.baseURL.absoluteString.hasPrefix("http://127.0.0.1:"))
            #expect(server.port != 0)
            let r = try await get(server.baseURL, "/api/KEY/conditions/q/CA/San_Francisco.json")
            #expect(r.status == 200)
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            #expect(r.header("Access-Control-Allow-Origin") == "*")
            let observation = try #require(r.json["current_observation"] as? [String: Any])
            #expect((observation["temp_f"] as? NSNumber)?.doubleValue == 76.5)
            // Without the extension, too.
            #expect(try await get(server.baseURL, "/api/KEY/conditions/q/CA/San_Francisco").status == 200)
        }
    }

    @Test func manifestRoutesMatchOnQuery() async throws {
        try await withServer(exampleStubs) { server in
            let london = try await get(server.baseURL, "/data/2.5/weather?q=London&appid=abc")
            #expect(london.status == 200)
            #expect(london.json["name"] as? String == "London")
            let missing = try await get(server.baseURL, "/data/2.5/weather?q=Atlantis&appid=abc")
            #expect(missing.status == 404)
            #expect(missing.json["message"] as? String == "city not found")
            #expect(try await get(server.baseURL, "/data/2.5/weather?q=London").status == 401)
        }
    }

    @Test func headIsAnsweredWithoutABody() throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        let r = try curl(["-I", server.baseURL.absoluteString + "/plain/payload.json", "-o", "/dev/null", "-w", "%{http_code} %{size_download}"])
        #expect(r.output == "200 0")
    }

    @Test func anUnmatchedRequestGetsProblemJSONNamingTheNearestRoute() async throws {
        try await withServer(exampleStubs) { server in
            let r = try await get(server.baseURL, "/api/KEY/condition/q/CA/San_Francisco.json")
            #expect(r.status == 404)
            #expect(r.header("Content-Type") == "application/problem+json")
            #expect((r.json["detail"] as? String)?.contains("path segment 3 differs: 'condition' here, 'conditions' in the route") == true)
            let nearest = try #require(r.json["nearest"] as? [[String: Any]])
            #expect(nearest.first?["route"] as? String == "GET /api/{key}/conditions/q/CA/San_Francisco.json")
        }
    }

    /// Three named routes on one path: the 404 names each and the condition it failed, and a query
    /// name sent in another case says how to accept it.
    @Test func aMissNamesTheNearestRoutesAndTheConditionEachFailed() async throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - { name: london, request: { path: /data/2.5/weather, query: { q: London, appid: "*" } }, response: { status: 200 } }
              - { name: paris, request: { path: /data/2.5/weather, query: { q: Paris, appid: "*" } }, response: { status: 200 } }
              - { name: any-city, request: { path: /data/2.5/weather, query: { appid: "*" } }, response: { status: 404 } }
            """])
        try await withServer(stubs.url) { server in
            let r = try await get(server.baseURL, "/data/2.5/weather?q=Berlin&APPID=k")
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

    @Test func aPathOfAnotherMethodGets405WithAllow() async throws {
        try await withServer(plainStubs) { server in
            let r = try await http(URL(string: server.baseURL.absoluteString + "/plain/payload.json")!, method: "DELETE")
            #expect(r.status == 405)
            #expect(r.header("Allow") == "GET, HEAD, OPTIONS")
        }
    }

    @Test func theJournalRecordsMatchesAndNearMisses() async throws {
        try await withServer(plainStubs) { server in
            _ = try await get(server.baseURL, "/plain/payload.json", headers: ["X-Trace": "one"])
            _ = try await get(server.baseURL, "/plain/payloads.json")
            let journal = try await get(server.baseURL, "/__stubd/requests?limit=10").json
            let requests = try #require(journal["requests"] as? [[String: Any]])
            #expect(requests.count == 2)
            #expect(requests[0]["route"] as? String == "GET /plain/payload.json")
            #expect((requests[0]["headers"] as? [String: String])?["X-Trace"] == "one")
            #expect(requests[1]["route"] is NSNull)
            #expect((requests[1]["nearest"] as? [String])?.first?.hasPrefix("GET /plain/payload.json") == true)
        }
    }

    @Test func theJournalIsABoundedRing() async throws {
        var options = StubServer.Options()
        options.journalCapacity = 5
        try await withServer(plainStubs, options: options) { server in
            for i in 0..<12 { _ = try await get(server.baseURL, "/plain/payload.json?i=\(i)") }
            let journal = try await get(server.baseURL, "/__stubd/requests?limit=100").json
            let requests = try #require(journal["requests"] as? [[String: Any]])
            #expect(requests.count == 5)
            #expect((journal["total"] as? NSNumber)?.intValue == 12)
            #expect((requests.last?["query"] as? [String: String])?["i"] == "11")
        }
    }

    @Test func healthAndRoutes() async throws {
        try await withServer(exampleStubs) { server in
            let health = try await get(server.baseURL, "/__stubd/health").json
            #expect(health["status"] as? String == "ok")
            #expect((health["routes"] as? NSNumber)?.intValue == server.engine.catalog.routes.count)
            let routes = try #require(try await get(server.baseURL, "/__stubd/routes").json["routes"] as? [[String: Any]])
            #expect(routes.contains { $0["name"] as? String == "london" && $0["source"] as? String == "stubd.yml:42" || $0["name"] as? String == "london" })
        }
    }

    /// Without TCP_NODELAY, libcurl's keep-alive requests each wait ~40 ms for a delayed ACK
    /// (20 requests took 0.84 s when measured); with it, well under a millisecond each.
    @Test func sequentialKeepAliveRequestsDoNotStall() async throws {
        try await withServer(plainStubs) { server in
            let session = URLSession(configuration: .ephemeral)
            let url = URL(string: server.baseURL.absoluteString + "/plain/payload.json")!
            _ = try await http(url, session: session)
            let start = Date()
            for _ in 0..<20 { #expect(try await http(url, session: session).status == 200) }
            #expect(Date().timeIntervalSince(start) < 0.4, "20 keep-alive requests took \(Date().timeIntervalSince(start)) s")
        }
    }

    @Test func keepAliveReallyKeepsAlive() throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        let url = server.baseURL.absoluteString + "/plain/payload.json"
        let r = try curl(["-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{num_connects}\n", url, url, url])
        #expect(r.output.split(separator: "\n") == ["1", "0", "0"])
    }
}

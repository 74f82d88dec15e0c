import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing
import StubdProtocol

/// Templates over real sockets: what the request and the session's clock put into the answer.
@Suite struct TemplateTests {
    @Test func theExampleForecastAnswersTheZipAskedFor() async throws {
        try await withServer(exampleStubs) { server in
            for zip in ["94107", "10001"] {
                let r = try await get(server.baseURL, "/api/KEY/forecast/q/\(zip).json")
                #expect(r.status == 200)
                #expect(r.header("Content-Type")?.hasPrefix("application/json") == true)
                #expect(r.text.contains(#""zip": "\#(zip)""#))
                // Whole JSON once rendered, dates included.
                let location = r.json["location"] as? [String: Any]
                #expect(location?["zip"] as? String == zip)
            }
        }
    }

    @Test func nowFollowsTheSessionsVirtualClock() async throws {
        let stubs = try TempStubs([
            "stubd.yml": """
            clock: { virtual: "2016-08-30T12:00:00-04:00" }
            routes:
              - request: { path: /today }
                response:
                  template: true
                  headers: { X-Observed: "{{now format='yyyy-MM-dd HH:mm' timezone='America/New_York'}}" }
                  json: { date: "{{now format='yyyy-MM-dd'}}", tomorrow: "{{now offset='1 days' format='yyyy-MM-dd'}}", epoch: "{{now format='epoch'}}" }
            """,
        ])
        try await withServer(stubs.url) { server in
            var r = try await get(server.baseURL, "/today")
            #expect(r.json["date"] as? String == "2016-08-30")
            #expect(r.json["tomorrow"] as? String == "2016-08-31")
            #expect(r.json["epoch"] as? String == "1472572800000")
            #expect(r.header("X-Observed") == "2016-08-30 12:00")
            let moved = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/clock/advance")!, method: "POST",
                                       body: #"{"seconds": 86400}"#)
            #expect(moved.status == 200)
            r = try await get(server.baseURL, "/today")
            #expect(r.json["date"] as? String == "2016-08-31")
            #expect(r.header("X-Observed") == "2016-08-31 12:00")
            // Another session's clock did not move.
            r = try await get(server.session("other").baseURL, "/today")
            #expect(r.json["date"] as? String == "2016-08-30")
        }
    }

    @Test func aMissingValueRendersEmptyAndTheJournalSaysWhy() async throws {
        let stubs = try TempStubs(["search.tmpl.json": #"{"q": "{{request.query.q}}", "who": "{{request.headers.X-User}}"}"#])
        try await withServer(stubs.url) { server in
            let r = try await get(server.baseURL, "/search.json")
            #expect(r.status == 200)
            #expect(r.json["q"] as? String == "")
            let journal = try await get(server.baseURL, "/__stubd/requests")
            let entries = journal.json["requests"] as? [[String: Any]]
            let notes = entries?.last?["notes"] as? [String] ?? []
            #expect(notes.contains { $0.contains("request.query.q is not in this request") })
            #expect(notes.contains { $0.contains("request.headers.X-User") })
            let report = try await StubdClient(baseURL: server.baseURL).requests(limit: 1)
            #expect(report.requests.last?.notes?.count == 2)
        }
    }

    @Test func templatesComposeWithSequencesDelaysAndQuotas() async throws {
        let stubs = try TempStubs([
            "stubd.yml": """
            quotas:
              - name: q
                routes: ["GET /items/{id}"]
                limits: ["2/hour"]  # windows start at :00; a minute's could turn over mid-test
            routes:
              - request: { path: "/items/{id}" }
                responses:
                  - { template: true, delay: 50ms, json: { id: "{{request.path.id}}", n: 1 } }
                  - { template: true, json: { id: "{{request.path.id}}", n: 2 } }
            """,
        ])
        try await withServer(stubs.url) { server in
            let start = Date()
            let a = try await get(server.baseURL, "/items/x1")
            #expect(Date().timeIntervalSince(start) >= 0.05)
            #expect(a.json["id"] as? String == "x1" && a.json["n"] as? Int == 1)
            let b = try await get(server.baseURL, "/items/x2")
            #expect(b.json["id"] as? String == "x2" && b.json["n"] as? Int == 2)
            #expect(try await get(server.baseURL, "/items/x3").status == 429)
        }
    }

    @Test func aRuntimeStubCanBeATemplate() async throws {
        try await withServer(exampleStubs) { server in
            _ = try await server.addStub(StubRoute(.get("/greet/{name}"), response: .template(#"{"hello": "{{request.path.name}}"}"#)))
            let r = try await get(server.baseURL, "/greet/ada")
            #expect(r.json["hello"] as? String == "ada")
            let routes = try await get(server.baseURL, "/__stubd/stubs").json["stubs"] as? [[String: Any]]
            #expect(routes?.first?["templated"] as? Bool == true)
            // A template error is the add's 400, with the position.
            do {
                _ = try await server.addStub(StubRoute(.get("/greet2/{name}"), response: .template(#"{"hello": "{{request.path.nmae}}"}"#)))
                Issue.record("a broken template was added")
            } catch let error as StubdError {
                #expect("\(error)".contains("request.path.nmae"))
                #expect("\(error)".contains("did you mean request.path.name"))
            }
        }
    }
}

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

    @Test func theRequestsPathQueryHeadersAndBodyAreAvailable() async throws {
        let stubs = try TempStubs([
            "stubd.yml": #"""
            routes:
              - request: { method: POST, path: "/users/{id}/orders" }
                response:
                  status: 201
                  template: true
                  headers: { Location: "/users/{{request.path.id}}/orders/{{jsonPath request.body '$.order.number'}}" }
                  body: |
                    {"user": "{{request.path.id}}", "second": "{{request.path.[1]}}", "q": "{{request.query.q}}",
                     "key": "{{request.headers.X-Api-Key}}", "method": "{{request.method}}",
                     "name": "{{jsonPath request.body '$.name'}}", "first": {{json (jsonPath request.body '$.items[0]')}},
                     "items": [{{#each (jsonPath request.body '$.items')}}{{#if @index}}, {{/if}}"{{this.sku}}"{{/each}}],
                     "metric": {{#eq request.query.units 'metric'}}true{{else}}false{{/eq}},
                     "hits": {{hits}}}
            """#,
        ])
        try await withServer(stubs.url) { server in
            let url = URL(string: server.baseURL.absoluteString + "/users/u42/orders?q=London,GB&units=metric")!
            let body = #"{"name": "Ada", "order": {"number": 7}, "items": [{"sku": "a1"}, {"sku": "b2"}]}"#
            let r = try await http(url, method: "POST", body: body, headers: ["X-Api-Key": "k-123", "Content-Type": "application/json"])
            #expect(r.status == 201)
            #expect(r.header("Location") == "/users/u42/orders/7")
            let json = r.json
            #expect(json["user"] as? String == "u42")
            #expect(json["second"] as? String == "u42")
            #expect(json["q"] as? String == "London,GB")
            #expect(json["key"] as? String == "k-123")
            #expect(json["method"] as? String == "POST")
            #expect(json["name"] as? String == "Ada")
            #expect((json["first"] as? [String: Any])?["sku"] as? String == "a1")
            #expect(json["items"] as? [String] == ["a1", "b2"])
            #expect(json["metric"] as? Bool == true)
            #expect(json["hits"] as? Int == 1)
            let again = try await http(url, method: "POST", body: body, headers: ["X-Api-Key": "k-123"])
            #expect(again.json["hits"] as? Int == 2)
        }
    }

    @Test func randomNumbersRepeatPerSessionAcrossRuns() async throws {
        let stubs = try TempStubs([
            "roll.tmpl.json": #"{"die": {{randomInt lower=1 upper=6}}, "id": "{{uuid}}"}"#,
        ])
        func rolls(_ session: String) async throws -> [String] {
            try await withServer(stubs.url) { server in
                try await (0..<5).asyncMap { _ in try await get(server.session(session).baseURL, "/roll.json").text }
            }
        }
        let first = try await rolls("seeded")
        let second = try await rolls("seeded")
        #expect(first == second)
        #expect(Set(first).count == 5)
        #expect(try await rolls("another") != first)
        for text in first {
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect((1...6).contains(json?["die"] as? Int ?? 0))
            #expect((json?["id"] as? String)?.range(of: #"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#, options: .regularExpression) != nil)
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

import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol

/// What the request and the session put into a templated answer, answered by the engine with no
/// socket (`EngineHarness`; these ran through a real server before issue 59). TemplateTests in
/// StubdServerTests keeps what needs one: a delay in real time, a runtime stub added by the client.
@Suite struct TemplateAnswerTests {
    /// The example folder's forecast answers with the zip the path asked for, dates and all rendered.
    @Test func theExampleForecastAnswersTheZipAskedFor() throws {
        let harness = try EngineHarness(folder: exampleStubs)
        for zip in ["94107", "10001"] {
            let r = harness.answer("/api/KEY/forecast/q/\(zip).json")
            #expect(r.status == 200)
            #expect(r.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(r.text.contains(#""zip": "\#(zip)""#))
            // Whole JSON once rendered, dates included.
            let location = r.json["location"] as? [String: Any]
            #expect(location?["zip"] as? String == zip)
        }
    }

    /// `now` reads the session's virtual clock: moved a day by the admin call, the answer moves with
    /// it, and another session's clock stays where it was.
    @Test func nowFollowsTheSessionsVirtualClock() throws {
        let harness = try EngineHarness(TempStubs([
            "stubd.yml": """
            clock: { virtual: "2016-08-30T12:00:00-04:00" }
            routes:
              - request: { path: /today }
                response:
                  template: true
                  headers: { X-Observed: "{{now format='yyyy-MM-dd HH:mm' timezone='America/New_York'}}" }
                  json: { date: "{{now format='yyyy-MM-dd'}}", tomorrow: "{{now offset='1 days' format='yyyy-MM-dd'}}", epoch: "{{now format='epoch'}}" }
            """,
        ]))
        var r = harness.answer("/today")
        #expect(r.json["date"] as? String == "2016-08-30")
        #expect(r.json["tomorrow"] as? String == "2016-08-31")
        #expect(r.json["epoch"] as? String == "1472572800000")
        #expect(r.header("X-Observed") == "2016-08-30 12:00")
        let moved = harness.admin(.post, "clock/advance", body: #"{"seconds": 86400}"#)
        #expect(moved.status == 200)
        r = harness.answer("/today")
        #expect(r.json["date"] as? String == "2016-08-31")
        #expect(r.header("X-Observed") == "2016-08-31 12:00")
        // Another session's clock did not move.
        r = harness.answer("/today", session: "other")
        #expect(r.json["date"] as? String == "2016-08-30")
    }

    /// A value the request does not carry renders empty, and the journal's notes say which and why.
    @Test func aMissingValueRendersEmptyAndTheJournalSaysWhy() throws {
        let harness = try EngineHarness(TempStubs(["search.tmpl.json": #"{"q": "{{request.query.q}}", "who": "{{request.headers.X-User}}"}"#]))
        let r = harness.answer("/search.json")
        #expect(r.status == 200)
        #expect(r.json["q"] as? String == "")
        let journal = harness.admin(.get, "requests")
        let entries = journal.json["requests"] as? [[String: Any]]
        let notes = entries?.last?["notes"] as? [String] ?? []
        #expect(notes.contains { $0.contains("request.query.q is not in this request") })
        #expect(notes.contains { $0.contains("request.headers.X-User") })
        let report = try harness.requests(limit: 1)
        #expect(report.requests.last?.notes?.count == 2)
    }

    @Test func theRequestsPathQueryHeadersAndBodyAreAvailable() throws {
        let harness = try EngineHarness(TempStubs([
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
        ]))
        let body = #"{"name": "Ada", "order": {"number": 7}, "items": [{"sku": "a1"}, {"sku": "b2"}]}"#
        let r = harness.answer("/users/u42/orders?q=London,GB&units=metric", method: .post, headers: ["X-Api-Key": "k-123", "Content-Type": "application/json"], body: body)
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
        let again = harness.answer("/users/u42/orders?q=London,GB&units=metric", method: .post, headers: ["X-Api-Key": "k-123"], body: body)
        #expect(again.json["hits"] as? Int == 2)
    }

    @Test func randomNumbersRepeatPerSessionAcrossRuns() throws {
        let stubs = try TempStubs([
            "roll.tmpl.json": #"{"die": {{randomInt lower=1 upper=6}}, "id": "{{uuid}}"}"#,
        ])
        // A new engine each time: what a new server run would be.
        func rolls(_ session: String) throws -> [String] {
            let harness = try EngineHarness(stubs)
            return (0..<5).map { _ in harness.answer("/roll.json", session: session).text }
        }
        let first = try rolls("seeded")
        let second = try rolls("seeded")
        #expect(first == second)
        #expect(Set(first).count == 5)
        #expect(try rolls("another") != first)
        for text in first {
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect((1...6).contains(json?["die"] as? Int ?? 0))
            #expect((json?["id"] as? String)?.range(of: #"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#, options: .regularExpression) != nil)
        }
    }
}

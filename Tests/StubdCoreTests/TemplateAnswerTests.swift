import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// What the request and the session put into a templated answer, answered by the engine with no
/// socket (`EngineHarness`; these ran through a real server before issue 59). TemplateTests in
/// StubdServerTests keeps what needs one: the clock moved through the admin API, a delay in real
/// time, a runtime stub added by the client.
@Suite struct TemplateAnswerTests {
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

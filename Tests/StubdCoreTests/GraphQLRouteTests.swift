import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 63: routes matched by GraphQL operation. Every request of an Apollo client is `POST
/// /graphql`; before, two operations could only be told apart by JSON-body equality, which a
/// re-ordered query or an added variable broke.
@Suite struct GraphQLRouteTests {
    static let manifest = """
        routes:
          - name: weather-paris
            request:
              path: /graphql
              graphql:
                operationName: GetWeather
                query: |
                  query GetWeather($city: String!) {
                    weather(city: $city) { tempC wind { speed } }
                  }
                variables: { city: Paris }
            response: { json: { data: { weather: { tempC: 21, wind: { speed: 3 } } } } }
          - name: weather-any
            request:
              path: /graphql
              graphql: { operationName: GetWeather }
            response: { json: { data: { weather: { tempC: 0, wind: { speed: 0 } } } } }
          - name: me
            request:
              path: /graphql
              graphql:
                query: "query Me { me { id name } }"
            response: { json: { data: { me: { id: "1", name: Ada } } } }
          - name: search
            request:
              path: /graphql
              graphql:
                operationName: Search
                variables: { filter: { kind: city } }
                variablesMatch: subset
            response: { json: { data: { search: [] } } }
        """

    private func harness() throws -> EngineHarness { try EngineHarness(TempStubs(["stubd.yml": Self.manifest])) }

    private func post(_ h: EngineHarness, _ body: String) -> EngineAnswer {
        h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"], body: body)
    }

    @Test func twoOperationsOnOneEndpointAreAnsweredByName() throws {
        let h = try harness()
        let me = post(h, #"{"operationName":"Me","query":"query Me { me { id name } }","variables":{}}"#)
        #expect(me.status == 200 && me.text.contains("Ada"), "\(me.status) \(me.text)")
        let weather = post(h, #"{"operationName":"GetWeather","query":"query GetWeather($city: String!) { weather(city: $city) { tempC } }","variables":{"city":"Oslo"}}"#)
        #expect(weather.text.contains(#""tempC":0"#), "the operation's catch-all: \(weather.text)")
    }

    @Test func variablesPickBetweenTwoAnswersAndTheQueryIsComparedByShape() throws {
        let h = try harness()
        // The same query re-spaced, commas added, fields in another order: Paris's answer.
        let paris = post(h, #"{"operationName":"GetWeather","query":"query GetWeather($city: String!) {\n weather(city: $city) { wind { speed }, tempC } }","variables":{"city":"Paris"}}"#)
        #expect(paris.text.contains(#""tempC":21"#), "\(paris.text)")
        // Another selection: not weather-paris's query, so the name-only route answers.
        let other = post(h, #"{"operationName":"GetWeather","query":"query GetWeather($city: String!) { weather(city: $city) { tempC } }","variables":{"city":"Paris"}}"#)
        #expect(other.text.contains(#""tempC":0"#), "\(other.text)")
        // `variablesMatch: subset`: more variables than the route's still match.
        let search = post(h, #"{"operationName":"Search","query":"query Search($filter: F, $page: Int) { search(filter: $filter, page: $page) { id } }","variables":{"filter":{"kind":"city","near":"x"},"page":2}}"#)
        #expect(search.status == 200 && search.text.contains("search"), "\(search.text)")
        let wrongKind = post(h, #"{"operationName":"Search","query":"query Search($filter: F) { search(filter: $filter) { id } }","variables":{"filter":{"kind":"town"}}}"#)
        #expect(wrongKind.status == 404, "\(wrongKind.text)")
        #expect(wrongKind.text.contains(#"do not include {\"filter\":{\"kind\":\"city\"}}"#), "\(wrongKind.text)")
    }

    @Test func getAndApplicationGraphQLAreReadAsPostIs() throws {
        let h = try harness()
        let get = h.http("/graphql?query=query%20Me%20%7B%20me%20%7B%20name%20id%20%7D%20%7D&operationName=Me")
        #expect(get.status == 200 && get.text.contains("Ada"), "\(get.status) \(get.text)")
        let getWithVariables = h.http("/graphql?operationName=GetWeather&query=query%20GetWeather(%24city%3A%20String!)%20%7B%20weather(city%3A%20%24city)%20%7B%20tempC%20wind%20%7B%20speed%20%7D%20%7D%20%7D&variables=%7B%22city%22%3A%22Paris%22%7D")
        #expect(getWithVariables.text.contains(#""tempC":21"#), "\(getWithVariables.text)")
        let raw = h.answer("/graphql", method: .post, headers: ["Content-Type": "application/graphql"], body: "query Me {\n  me { name id }\n}")
        #expect(raw.status == 200 && raw.text.contains("Ada"), "\(raw.status) \(raw.text)")
    }

    @Test func aMissNamesTheOperationAndWhyEachRouteDidNotAnswer() throws {
        let h = try harness()
        let unknown = post(h, #"{"operationName":"Forecast","query":"query Forecast { forecast { day } }"}"#)
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("GraphQL operation is Forecast, the route answers GetWeather"), "\(unknown.text)")
        #expect(unknown.text.contains("graphql GetWeather"), "routes are named by operation: \(unknown.text)")
    }

    @Test func aMalformedQueryInARequestIsAMissThatSaysWhereNotACrash() throws {
        let h = try harness()
        let broken = post(h, #"{"query":"query Me { me { id name }"}"#)
        #expect(broken.status == 404)
        #expect(broken.text.contains("does not parse: expected a field, found the end of the document at line 1, column 26"), "\(broken.text)")
        let notJSON = post(h, "query Me { me { id } }")
        #expect(notJSON.status == 404)
        #expect(notJSON.text.contains("the body is not JSON"), "\(notJSON.text)")
        let put = h.answer("/graphql", method: .put, headers: ["Content-Type": "application/json"], body: #"{"query":"{ me { id } }"}"#)
        #expect(put.status == 405 || put.status == 404, "\(put.status) \(put.text)")
    }

    @Test func aMalformedQueryInAStubIsALoadProblemAtItsLineAndColumn() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request:
                  path: /graphql
                  graphql:
                    query: |
                      query Me {
                        me { id name
                      }
                response: { json: {} }
            """])
        #expect(throws: CatalogLoadError.self) { try StubCatalog.load(stubs: stubs.url) }
        do { _ = try StubCatalog.load(stubs: stubs.url) } catch {
            let problem = try #require(error.problems.first)
            #expect(problem.location == "stubd.yml:8:12", "\(problem)")
            #expect(problem.message.contains("does not parse: expected a field, found the end of the document"), "\(problem)")
        }
    }

    @Test func aRuntimeStubAnswersAnOperationInItsSessionOnly() throws {
        let h = try harness()
        let added = h.admin(.post, "stubs", body: #"{"name": "me-admin", "request": {"path": "/graphql", "graphql": {"operationName": "Me"}}, "response": {"json": {"data": {"me": {"name": "Admin"}}}}}"#, session: "t1")
        #expect(added.status == 201, "\(added.text)")
        let body = #"{"operationName":"Me","query":"query Me { me { id name } }"}"#
        let inSession = h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"], body: body, session: "t1")
        #expect(inSession.text.contains("Admin"), "\(inSession.text)")
        let elsewhere = h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"], body: body, session: "t2")
        #expect(elsewhere.text.contains("Ada"), "\(elsewhere.text)")
        // On a path no route of the folder's listens on: read by the matcher itself.
        _ = h.admin(.post, "stubs", body: #"{"request": {"path": "/api/graphql", "graphql": {"operationName": "Ping"}}, "response": {"json": {"data": {"ping": true}}}}"#, session: "t1")
        let ping = h.answer("/api/graphql", method: .post, headers: ["Content-Type": "application/json"], body: #"{"query":"query Ping { ping }"}"#, session: "t1")
        #expect(ping.text.contains("ping"), "\(ping.text)")
        let pong = h.answer("/api/graphql", method: .post, headers: ["Content-Type": "application/json"], body: #"{"query":"query Pong { pong }"}"#, session: "t1")
        // (A miss names the folder's routes only, as for any runtime stub: the session's are not among them.)
        #expect(pong.status == 404, "\(pong.text)")
    }

    @Test func routesAreListedAndCountedByOperation() throws {
        let h = try harness()
        let signatures = h.engine.catalog.routes.map(\.signature)
        #expect(signatures.contains(#"graphql GetWeather {"city":"Paris"} on /graphql"#), "\(signatures)")
        #expect(signatures.contains("graphql Me on /graphql"), "the query's operation names a route without operationName: \(signatures)")
        _ = post(h, #"{"operationName":"Me","query":"query Me { me { id name } }"}"#)
        #expect(try h.hits("me") == 1)
        let coverage = h.admin(.get, "coverage").text
        #expect(coverage.contains("graphql Search with {"), "\(coverage)")
    }
}

import Foundation
import StubdCoreTestSupport
import StubdTestSupport
import Testing

/// `stubd check --graphql-schema` and `stubd serve --graphql-schema`, run as a user would, on
/// Examples/graphql and its schema (issue 63); the check's rules one by one: GraphQLSchemaCheckTests.
@Suite struct GraphQLSchemaCommandTests {
    static let example = repositoryRoot.appendingPathComponent("Examples/graphql")
    static let schema = example.appendingPathComponent("schema.graphqls").path

    @Test func theExampleKeepsToItsSchema() throws {
        let r = try run(stubdBinary.path, ["check", "--stubs", Self.example.appendingPathComponent("Stubs").path, "--graphql-schema", Self.schema])
        #expect(r.status == 0, "\(r.output)\(r.error)")
        #expect(r.output.contains("5 GraphQL answers keep to schema.graphqls (8 types)"), "\(r.output)")
        #expect(r.output.contains("notice: graphql Me on /graphql (graphql/Me.graphql.json) has no query"), "\(r.output)")
    }

    /// The example's Paris answer with a sky the schema's enum does not have, a field its query does
    /// not select and one it selects left out: each listed at once, at its line and column, with its path.
    @Test func aWrongEnumAnUnselectedAndAMissingFieldAreNamedAtTheirPlaces() throws {
        let stubs = try TempStubs([
            "stubd.yml": """
                routes:
                  - name: weather-paris
                    request:
                      path: /graphql
                      graphql:
                        operationName: GetWeather
                        query: "query GetWeather($city: String!) { weather(city: $city) { city tempC sky } }"
                    response: { file: paris.json }
                """,
            "paris.json": """
                {"data": {"weather": {
                  "city": "Paris",
                  "sky": "SUNNY",
                  "wind": 12
                }}}
                """,
        ])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--graphql-schema", Self.schema])
        #expect(r.status == 1)
        for line in ["paris.json:3:10: weather-paris: data.weather.sky: 'SUNNY' is not a value of the enum Sky (CLEAR, CLOUDY, RAIN, SNOW)",
                     "paris.json:4:11: weather-paris: data.weather.wind: not selected: the query does not ask for 'wind' here",
                     "paris.json:1:22: weather-paris: data.weather.tempC: missing: the query selects 'tempC' on Weather"] {
            #expect(r.error.contains(line), "\(r.error)")
        }
        // Killed if it serves after all: a serve that took the folder would never end.
        let served = try run(stubdBinary.path, ["serve", "--stubs", stubs.url.path, "--port", "0", "--no-watch", "--graphql-schema", Self.schema],
                             killedAfter: 20)
        #expect(served.status == 1, "serve refuses the folder as check does")
        #expect(served.error.contains("paris.json:3:10: weather-paris: data.weather.sky"), "\(served.error)")
    }

    /// A folder that keeps to the schema is served as ever, and the start says what it is held to.
    @Test func serveHoldsTheExampleToItsSchemaAndAnswers() throws {
        let serve = try ServeProcess(["--stubs", Self.example.appendingPathComponent("Stubs").path, "--graphql-schema", Self.schema])
        // The route's query in another order: the route matches by shape.
        let query = "query Search($text: String!) { search(text: $text) { ... on Station { code } ... on Weather { now: tempC sky } ... on Place { city } __typename } }"
        let body = #"{"operationName":"Search","query":"\#(query)","variables":{"text":"Par"}}"#
        let answer = try curl(["-s", "-H", "Content-Type: application/json", "--data", body, serve.baseURL.absoluteString + "/graphql"])
        #expect(answer.output.contains(#""__typename":"Station""#), "\(answer.output)")
        #expect(serve.log.contains("stubd --graphql-schema schema.graphqls (8 types): every GraphQL stub's answer keeps to it"), "\(serve.log)")
    }

    @Test func aBrokenSchemaIsRefusedAtItsLineAndColumn() throws {
        let dir = try TempStubs(["schema.graphqls": "type Query {\n  weather: Wether\n}\n"])
        let path = dir.url.appendingPathComponent("schema.graphqls").path
        let r = try run(stubdBinary.path, ["check", "--stubs", Self.example.appendingPathComponent("Stubs").path, "--graphql-schema", path])
        #expect(r.status == 1)
        #expect(r.error.contains("stubd check: cannot read the GraphQL schema \(path):2:12: unknown type Wether: no definition in the schema"), "\(r.error)")
        let served = try run(stubdBinary.path, ["serve", "--stubs", Self.example.appendingPathComponent("Stubs").path, "--port", "0", "--graphql-schema", path],
                             killedAfter: 20)
        #expect(served.status == 1)
        #expect(served.error.contains("stubd: cannot read the GraphQL schema \(path):2:12: unknown type Wether"), "\(served.error)")
    }
}

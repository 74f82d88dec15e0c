import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 63: with `--graphql-schema`, a GraphQL request is held to the schema before any route is
/// asked. Strict mode answers what a real server answers (Apollo Server: 400, graphql-js's words, the
/// code in `extensions`), so an app's error handling is tested against the envelope it will meet;
/// report mode serves the stub and says what was wrong.
@Suite struct GraphQLRequestValidationTests {
    static let schema = """
        type Query {
          weather(city: String!): Weather
          me: User!
        }
        type Weather { city: String! tempC: Float! }
        type User { id: ID! name: String! }
        """

    static let manifest = """
        routes:
          - name: weather
            request:
              path: /graphql
              graphql: { operationName: GetWeather }
            response: { json: { data: { weather: { city: Paris, tempC: 21 } } } }
          - name: me
            request:
              path: /graphql
              graphql: { operationName: Me }
            response: { json: { data: { me: { id: "1", name: Ada } } } }
        """

    private func harness(_ validation: EngineHarness.Validation) throws -> EngineHarness {
        try EngineHarness(TempStubs(["stubd.yml": Self.manifest]), validation: validation, graphQLSchema: GraphQLSchema(parsing: Self.schema))
    }

    private func post(_ h: EngineHarness, _ body: String) -> EngineAnswer {
        h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"], body: body)
    }

    private func errors(_ answer: EngineAnswer) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        return try #require(object["errors"] as? [[String: Any]], "\(answer.text)")
    }

    @Test func strictAnswersAnUnknownFieldWithTheErrorsEnvelopeAndItsPlace() throws {
        let h = try harness(.strict)
        let answer = post(h, #"{"operationName":"GetWeather","query":"query GetWeather($city: String!) {\n  weather(city: $city) { city humidity }\n}","variables":{"city":"Paris"}}"#)
        #expect(answer.status == 400, "\(answer.status) \(answer.text)")
        let found = try errors(answer)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?["message"] as? String == #"Cannot query field "humidity" on type "Weather"."#, "\(found)")
        let location = (found.first?["locations"] as? [[String: Any]])?.first
        #expect(location?["line"] as? Int == 2 && location?["column"] as? Int == 31, "\(found)")
        #expect((found.first?["extensions"] as? [String: Any])?["code"] as? String == "GRAPHQL_VALIDATION_FAILED")
        #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
        // The route was not asked: its hit is not counted.
        #expect(h.engine.defaultSession.hits(for: "weather") == 0)
    }

    @Test func strictNamesEveryProblemOfTheDocumentAtOnce() throws {
        let h = try harness(.strict)
        let answer = post(h, #"{"query":"{ me { id nickname name { first } } weather }"}"#)
        #expect(answer.status == 400)
        let messages = try errors(answer).compactMap { $0["message"] as? String }
        #expect(messages == [#"Cannot query field "nickname" on type "User"."#,
                             #"Field "name" must not have a selection since type "String!" has no subfields."#,
                             #"Field "weather" of type "Weather" must have a selection of subfields. Did you mean "weather { ... }"?"#],
                "\(messages)")
    }

    @Test func strictAnswersAMissingRequiredVariableAsBadUserInput() throws {
        let h = try harness(.strict)
        let missing = post(h, #"{"operationName":"GetWeather","query":"query GetWeather($city: String!) { weather(city: $city) { city } }","variables":{}}"#)
        #expect(missing.status == 400)
        let found = try errors(missing)
        #expect(found.first?["message"] as? String == #"Variable "$city" of required type "String!" was not provided."#, "\(found)")
        #expect((found.first?["extensions"] as? [String: Any])?["code"] as? String == "BAD_USER_INPUT")
        let null = post(h, #"{"operationName":"GetWeather","query":"query GetWeather($city: String!) { weather(city: $city) { city } }","variables":{"city":null}}"#)
        #expect(try errors(null).first?["message"] as? String == #"Variable "$city" of non-null type "String!" must not be null."#)
        // A default lets it be left out.
        let defaulted = post(h, #"{"operationName":"GetWeather","query":"query GetWeather($city: String! = \"Paris\") { weather(city: $city) { city } }"}"#)
        #expect(defaulted.status == 200, "\(defaulted.text)")
    }

    @Test func aValidRequestGetsTheStubWithFragmentsAliasesAndTypename() throws {
        let h = try harness(.strict)
        let answer = post(h, #"{"operationName":"Me","query":"query Me { __typename me { ...Who handle: name } } fragment Who on User { id __typename }"}"#)
        #expect(answer.status == 200 && answer.text.contains("Ada"), "\(answer.status) \(answer.text)")
        #expect(h.engine.defaultSession.hits(for: "me") == 1)
    }

    @Test func reportServesTheStubAndSaysWhatWasWrong() throws {
        let h = try harness(.report)
        let answer = post(h, #"{"operationName":"Me","query":"query Me { me { id nickname } }"}"#)
        #expect(answer.status == 200 && answer.text.contains("Ada"), "\(answer.text)")
        let header = answer.header("X-Stubd-Contract") ?? ""
        #expect(header.contains(#"Cannot query field "nickname" on type "User"."#), "\(header)")
    }

    @Test func offAndNoSchemaLeaveRequestsAlone() throws {
        let off = try harness(.off)
        #expect(post(off, #"{"operationName":"Me","query":"query Me { me { nickname } }"}"#).status == 200)
        let none = try EngineHarness(TempStubs(["stubd.yml": Self.manifest]), validation: .strict)
        #expect(post(none, #"{"operationName":"Me","query":"query Me { me { nickname } }"}"#).status == 200)
    }
}

import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 63: a GraphQL stub's answer held to the schema and to the selection set of the query it
/// answers (`stubd check --graphql-schema`), each problem with the field's path; CLI runs: GraphQLSchemaCommandTests.
@Suite struct GraphQLSchemaCheckTests {
    static let sdl = """
        type Query {
          weather(city: String!): Weather
          forecast(days: Int!): [Day!]
          me: User!
          search(text: String!): [SearchResult!]!
          places: [Place!]!
        }
        enum Sky { CLEAR CLOUDY RAIN }
        interface Place { city: String! }
        type Weather implements Place { city: String! tempC: Float! sky: Sky! }
        type Day { date: String! tempC: Float! }
        type User { id: ID! name: String! age: Int }
        type Station implements Place { city: String! code: String! }
        union SearchResult = Weather | Station
        """

    static let schema = try! GraphQLSchema(parsing: sdl)

    /// The violations of `answer` (JSON text) to `query`, or to the schema alone when it is nil.
    func violations(_ answer: String, _ query: String?) throws -> [GraphQLAnswerViolation] {
        let tree = try query.map { try GraphQLSelectionTree(parsing: $0) }
        return GraphQLAnswerCheck.violations(of: try JSONParser.parse(answer), schema: Self.schema, tree: tree,
                                             operation: tree?.operation(named: nil))
    }

    func shown(_ violations: [GraphQLAnswerViolation]) -> [String] { violations.map(\.description) }

    @Test func aValidAnswerPasses() throws {
        let query = """
            query Everything {
              weather(city: "Paris") { __typename city now: tempC sky }
              forecast(days: 2) { date tempC }
              me { ...Who }
              search(text: "Par") { __typename ... on Place { city } ... on Weather { sky } ... on Station { code } }
              places { city }
            }
            fragment Who on User { id name age }
            """
        let answer = """
            {"data": {"weather": {"__typename": "Weather", "city": "Paris", "now": 21.5, "sky": "CLEAR"},
                      "forecast": [{"date": "2026-12-08", "tempC": 3}, {"date": "2026-12-09", "tempC": -1}],
                      "me": {"id": 1, "name": "Ada", "age": null},
                      "search": [{"__typename": "Weather", "city": "Paris", "sky": "RAIN"}, {"__typename": "Station", "city": "Paris", "code": "LFPG"}],
                      "places": []},
             "errors": [{"message": "partial", "path": ["forecast", 1], "locations": [{"line": 1, "column": 2}], "extensions": {"code": "X"}}]}
            """
        let found = try violations(answer, query)
        #expect(found.isEmpty, "\(shown(found))")
        #expect(try violations(#"{"data": {"weather": null}}"#, "{ weather(city: \"x\") { city } }").isEmpty, "a nullable field may be null")
    }

    @Test func aFieldTheQuerySelectsMissingFromTheAnswer() throws {
        let found = try violations(#"{"data": {"weather": {"city": "Paris"}}}"#, "{ weather(city: \"Paris\") { city tempC } }")
        #expect(shown(found) == ["data.weather.tempC: missing: the query selects 'tempC' on Weather"], "\(shown(found))")
        #expect(found.first?.pointer == "/data/weather", "placed at the object it is missing from")
    }

    @Test func aFieldTheQueryDidNotSelect() throws {
        let found = try violations(#"{"data": {"weather": {"city": "Paris", "sky": "CLEAR"}}}"#, "{ weather(city: \"Paris\") { city } }")
        #expect(shown(found) == ["data.weather.sky: not selected: the query does not ask for 'sky' here"], "\(shown(found))")
        #expect(found.first?.pointer == "/data/weather/sky")
    }

    @Test func aWrongTypeIsNamedWithWhatWasFound() throws {
        let found = try violations(#"{"data": {"weather": {"city": 3, "tempC": "warm", "sky": "CLEAR"}, "forecast": {"date": "x"}, "me": []}}"#,
                                   "{ weather(city: \"x\") { city tempC sky } forecast(days: 1) { date } me { id } }")
        #expect(Set(shown(found)) == ["data.weather.city: expected a string (String), found a number (3)",
                                      "data.weather.tempC: expected a number (Float), found a string (\"warm\")",
                                      "data.forecast: expected a list ([Day!]), found an object",
                                      "data.me: expected an object (User), found a list"], "\(shown(found))")
        let int = try violations(#"{"data": {"me": {"age": 1.5}}}"#, "{ me { age } }")
        #expect(shown(int) == ["data.me.age: expected an integer (32-bit) (Int), found a number (1.5)"], "\(shown(int))")
    }

    @Test func nullInANonNullField() throws {
        let found = try violations(#"{"data": {"forecast": [{"date": "a"}, null], "me": null}}"#, "{ forecast(days: 2) { date } me { id } }")
        #expect(Set(shown(found)) == ["data.forecast[1]: null, but the schema says Day!: a server never answers null here",
                                      "data.me: null, but the schema says User!: a server never answers null here"], "\(shown(found))")
    }

    @Test func anUnknownEnumValue() throws {
        let found = try violations(#"{"data": {"weather": {"sky": "SUNNY"}}}"#, "{ weather(city: \"x\") { sky } }")
        #expect(shown(found) == ["data.weather.sky: 'SUNNY' is not a value of the enum Sky (CLEAR, CLOUDY, RAIN)"], "\(shown(found))")
        #expect(found.first?.pointer == "/data/weather/sky")
    }

    @Test func typenameAskedForAndMissingOrWrong() throws {
        let missing = try violations(#"{"data": {"weather": {"city": "x"}}}"#, "{ weather(city: \"x\") { __typename city } }")
        #expect(shown(missing) == ["data.weather.__typename: missing: the query selects '__typename' on Weather"], "\(shown(missing))")
        let wrong = try violations(#"{"data": {"weather": {"__typename": "Wether", "city": "x"}}}"#, "{ weather(city: \"x\") { __typename city } }")
        #expect(shown(wrong) == ["data.weather.__typename: 'Wether' is not a type this field can be: expected 'Weather'"], "\(shown(wrong))")
        let notMember = try violations(#"{"data": {"search": [{"__typename": "Day"}]}}"#, "{ search(text: \"x\") { __typename } }")
        #expect(shown(notMember) == ["data.search[0].__typename: 'Day' is not a type this field can be: expected one of Station, Weather"],
                "\(shown(notMember))")
    }

    @Test func fragmentsOnAUnionAndAnInterfaceApplyByTypename() throws {
        let query = """
            { search(text: "x") { __typename ... on Weather { sky } ...S }
              places { __typename city ... on Station { code } } }
            fragment S on Station { code }
            """
        let answer = """
            {"data": {"search": [{"__typename": "Weather", "code": "LFPG"}, {"__typename": "Station", "sky": "RAIN"}],
                      "places": [{"__typename": "Station", "city": "Paris"}, {"__typename": "Weather", "city": "Paris"}]}}
            """
        let found = try violations(answer, query)
        #expect(Set(shown(found)) == [
            "data.search[0].sky: missing: the query selects 'sky' on Weather",
            "data.search[0].code: not selected: the query does not ask for 'code' here",
            "data.search[1].code: missing: the query selects 'code' on Station",
            "data.search[1].sky: not selected: the query does not ask for 'sky' here",
            "data.places[0].code: missing: the query selects 'code' on Station",
        ], "\(shown(found))")
    }

    /// Apollo's clients add `__typename` to every selection set they send: an answer recorded from
    /// one has it where the route's query, as the user wrote it, does not ask for it. Its value still counts.
    @Test func anUnaskedTypenameIsLetBeButMustBeRight() throws {
        #expect(try violations(#"{"data": {"weather": {"__typename": "Weather", "city": "x"}}}"#, "{ weather(city: \"x\") { city } }").isEmpty)
        let wrong = try violations(#"{"data": {"weather": {"__typename": "Day", "city": "x"}}}"#, "{ weather(city: \"x\") { city } }")
        #expect(shown(wrong) == ["data.weather.__typename: 'Day' is not a type this field can be: expected 'Weather'"], "\(shown(wrong))")
    }

    @Test func aFragmentTheQueryDoesNotDefineIsNamed() throws {
        let found = try violations(#"{"data": {"me": {"id": "1"}}}"#, "{ me { id ...Who } }")
        #expect(shown(found) == ["(query): the query spreads ...Who, a fragment it does not define"], "\(shown(found))")
    }

    @Test func aliasesAreTheAnswersKeys() throws {
        let found = try violations(#"{"data": {"paris": {"tempC": 21}}}"#, "{ paris: weather(city: \"Paris\") { now: tempC } }")
        #expect(Set(shown(found)) == ["data.paris.now: missing: the query selects 'now' (tempC under its alias now) on Weather",
                                      "data.paris.tempC: not selected: the query does not ask for 'tempC' here"], "\(shown(found))")
        let typed = try violations(#"{"data": {"paris": {"now": "hot"}}}"#, "{ paris: weather(city: \"Paris\") { now: tempC } }")
        #expect(shown(typed) == ["data.paris.now: expected a number (Float), found a string (\"hot\")"], "the alias's value has its field's type")
    }

    @Test func errorsEntriesAreCheckedForShape() throws {
        let answer = """
            {"data": null, "errors": [{"path": ["a", {}], "locations": [{"line": 0, "column": 1}]}, {"message": 3, "extensions": []}, "oops"]}
            """
        let found = try violations(answer, nil)
        #expect(Set(shown(found)) == [
            "errors[0].message: an error needs a 'message' string",
            "errors[0].path[1]: a path segment is a field's name (a string) or a list index (an integer from 0), found an object",
            "errors[0].locations[0]: a location is {\"line\": N, \"column\": N}, each an integer from 1",
            "errors[1].message: expected a string, found a number (3)",
            "errors[1].extensions: 'extensions' is an object, found a list",
            "errors[2]: an error is an object with a 'message', found a string (\"oops\")",
        ], "\(shown(found))")
        #expect(shown(try violations(#"{"data": null}"#, nil)) == ["data: 'data' is null with no 'errors' saying why"])
        #expect(shown(try violations(#"{"weather": {}}"#, nil)).contains("weather: a GraphQL answer has 'data', 'errors' and 'extensions', not 'weather'"))
    }

    @Test func withoutAQueryTheSchemaAloneJudges() throws {
        let found = try violations(#"{"data": {"me": {"id": "1", "name": 7, "nickname": "A"}}}"#, nil)
        #expect(Set(shown(found)) == ["data.me.name: expected a string (String), found a number (7)",
                                      "data.me.nickname: 'nickname' is not a field of User"], "\(shown(found))")
        #expect(try violations(#"{"data": {"me": {"id": "1"}}}"#, nil).isEmpty, "a field left out may not have been selected")
    }

    @Test func aQueryFieldTheSchemaLacksIsNamed() throws {
        let found = try violations(#"{"data": {"weather": {"wind": 3}}}"#, "{ weather(city: \"x\") { wind } }")
        #expect(shown(found) == ["data.weather.wind: the query selects 'wind', which Weather does not have in the schema"], "\(shown(found))")
    }

    @Test func aBrokenSchemaSaysWhereAndWhat() throws {
        #expect(throws: GraphQLSchemaError(message: "expected ':' and a type after the field's name, found 'Int'", line: 2, column: 5)) {
            try GraphQLSchema(parsing: "type Query {\n  a Int\n}")
        }
        #expect(throws: GraphQLSchemaError(message: "unknown type Wether: no definition in the schema", line: 1, column: 17)) {
            try GraphQLSchema(parsing: "type Query { a: Wether }")
        }
        #expect(throws: GraphQLSchemaError(message: "union U lists Int, which is not an object type", line: 2, column: 7)) {
            try GraphQLSchema(parsing: "type Query { a: U }\nunion U = Int")
        }
        #expect(throws: GraphQLSchemaError(message: "a schema holds type definitions, not operations (is this a query document?), found 'query'",
                                           line: 1, column: 1)) {
            try GraphQLSchema(parsing: "query { a }")
        }
        let extended = try GraphQLSchema(parsing: """
            schema { query: Root }
            \"\"\"A description\"\"\" type Root { a(x: [Int!] = [1, 2], y: In = {v: "s"}): Int @deprecated(reason: "no") }
            input In { v: String = "d" }
            extend type Root { b: E }
            enum E { ONE TWO }
            directive @tag(name: String!) repeatable on FIELD_DEFINITION | OBJECT
            """)
        #expect(extended.root("query")?.fields.keys.sorted() == ["a", "b"])
        #expect(extended.types["E"]?.enumValues == ["ONE", "TWO"])
    }

    /// `--graphql-schema schema.json`: an introspection result (`{"data": {"__schema": …}}`), as
    /// graphql-codegen and Apollo's download-schema write it, reads as its SDL does.
    @Test func anIntrospectionResultIsASchemaToo() throws {
        let introspection = """
            {"data": {"__schema": {"queryType": {"name": "Query"}, "mutationType": null, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [{"name": "weather", "type": {"kind": "OBJECT", "name": "Weather"}}]},
              {"kind": "OBJECT", "name": "Weather", "interfaces": [], "fields": [
                {"name": "sky", "type": {"kind": "NON_NULL", "ofType": {"kind": "ENUM", "name": "Sky"}}},
                {"name": "days", "type": {"kind": "LIST", "ofType": {"kind": "SCALAR", "name": "Int"}}}]},
              {"kind": "ENUM", "name": "Sky", "enumValues": [{"name": "CLEAR"}, {"name": "RAIN"}]},
              {"kind": "SCALAR", "name": "String"},
              {"kind": "OBJECT", "name": "__Type", "fields": []}]}}}
            """
        let files = try TempStubs(["schema.json": introspection, "broken.json": "{\"__schema\": {\"types\": [\n  {\"kind\": \"THING\", \"name\": \"X\"}]}}"])
        let schema = try GraphQLSchemaFile.load(files.url.appendingPathComponent("schema.json"))
        #expect(schema.types.keys.sorted() == ["Query", "Sky", "Weather"], "GraphQL's own types and the built-in scalars are left out")
        let tree = try GraphQLSelectionTree(parsing: "{ weather { sky days } }")
        let found = GraphQLAnswerCheck.violations(of: try JSONParser.parse(#"{"data": {"weather": {"sky": "SUNNY", "days": ["x"]}}}"#),
                                                  schema: schema, tree: tree, operation: tree.operation(named: nil))
        #expect(Set(shown(found)) == ["data.weather.sky: 'SUNNY' is not a value of the enum Sky (CLEAR, RAIN)",
                                      "data.weather.days[0]: expected an integer (32-bit) (Int), found a string (\"x\")"], "\(shown(found))")
        do {
            _ = try GraphQLSchemaFile.load(files.url.appendingPathComponent("broken.json"))
            Issue.record("a type of no kind GraphQL has was read")
        } catch {
            #expect(error.description.hasSuffix("broken.json:2:12: 'THING' is not a type kind (ENUM, INPUT_OBJECT, INTERFACE, OBJECT, SCALAR, UNION)"),
                    "\(error.description)")
        }
    }

    /// Every problem of a folder at once, each at the stub file's line and column (or its manifest route).
    @Test func problemsArePlacedInTheStubFiles() throws {
        let stubs = try TempStubs([
            "graphql/Me.graphql.json": "{\"data\": {\"me\": {\n  \"id\": \"1\",\n  \"name\": 7}}}",
            "stubd.yml": """
                routes:
                  - request:
                      path: /graphql
                      graphql:
                        operationName: W
                        query: "query W { weather(city: \\"x\\") { sky } }"
                    response: { json: { data: { weather: { sky: SUNNY } } } }
                  - request: { path: /graphql, graphql: { operationName: W2, query: "query W2 { weather(city: \\"x\\") { sky } }" } }
                    response: { file: w2.json }
                """,
            "w2.json": "{\"data\": {\"weather\": {\"sky\": \"CLEAR\"}}}",
        ])
        let catalog = try StubCatalog.load(stubs: stubs.url)
        let check = StubGraphQLCheck(catalog: catalog, schema: Self.schema)
        #expect(Set(check.problems.map { "\($0.location): \($0.message)" }) == [
            "graphql/Me.graphql.json:3:11: graphql Me on /graphql: data.me.name: expected a string (String), found a number (7)",
            "stubd.yml:2: graphql W on /graphql: data.weather.sky: 'SUNNY' is not a value of the enum Sky (CLEAR, CLOUDY, RAIN)",
        ], "\(check.problems.map(\.description))")
        #expect(check.checked == 3)
        #expect(check.notices == ["graphql Me on /graphql (graphql/Me.graphql.json) has no query: its answer is held to the schema alone "
                                  + "(a field the query would select cannot be missed); give the route graphql.query to hold it to the selection set"],
                "\(check.notices)")
    }
}

import Foundation
import Stubd
import StubdClient
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// `stubd check --spec` and `stubd serve --spec`: stubs held to an OpenAPI contract, run as a user would.
@Suite struct ContractCheckTests {
    /// A 3.0 spec whose answer schema is in a second file and refers to itself (WeatherContract).
    static let spec30 = WeatherContract.files

    /// Server options holding stubs (and, by `validation`, requests) to `spec30`, written to a folder of its own.
    static func servingSpec30(_ validation: RequestValidationMode = .report) throws -> StubServer.Options {
        let spec = try TempStubs(Self.spec30)
        var options = StubServer.Options()
        options.contract = try APIContract.load(spec: spec.url.appendingPathComponent("openapi.yaml"))
        options.requestValidation = validation
        return options
    }

    static let goodAnswer = WeatherContract.goodAnswer

    @Test func eachOfTheFiveViolationsIsALoadErrorAtItsPlaceInTheStub() throws {
        let spec = try TempStubs(Self.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": """
            {
              "name": 42,
              "dt": "yesterday",
              "main": {"humidity": 80, "kind": "snow"},
              "nmae": "London"
            }
            """])
        // `--formats assert`, though a date-time is held to its format by default too (issue 58): the same five either way.
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("openapi.yaml").path,
                                           "--formats", "assert"])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("5 problems"), "\(r.error)")
        for expected in [
            "data/2.5/weather.json:2:11: GET /data/2.5/weather 200: /name: expected a string",
            "data/2.5/weather.json:3:9: GET /data/2.5/weather 200: /dt: expected an RFC 3339 date-time",
            "data/2.5/weather.json:4:11: GET /data/2.5/weather 200: /main: the required property 'temp' is missing",
            "data/2.5/weather.json:4:36: GET /data/2.5/weather 200: /main/kind: expected one of \"rain\", \"sun\", or \"clouds\"",
            "data/2.5/weather.json:5:11: GET /data/2.5/weather 200: /nmae: the property 'nmae' is not allowed here; did you mean 'name'?",
            "schemas/weather.yaml#/Weather/properties/dt/format",
            "schemas/weather.yaml#/Weather/properties/main/required",
            "schemas/weather.yaml#/Weather/additionalProperties",
        ] {
            #expect(r.error.contains(expected), "\(expected) in \(r.error)")
        }
    }

    @Test func aConformingFolderPassesAndListsWhatTheSpecAndTheStubsDoNotShare() throws {
        let spec = try TempStubs(Self.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer, "data/2.5/onecall.json": "{}"])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("openapi.yaml").path])
        #expect(r.status == 0, "\(r.error)")
        #expect(r.output.contains("notice: GET /data/2.5/onecall.json (data/2.5/onecall.json) matches no operation in openapi.yaml"), "\(r.output)")
        #expect(r.output.contains("notice: GET /data/2.5/forecast in openapi.yaml has no stub"), "\(r.output)")
        #expect(r.output.contains("every answer keeps to openapi.yaml (OpenAPI 3.0.3, 2 operations)"), "\(r.output)")
    }

    @Test func aManifestAnswerIsCheckedForItsStatusAndRequiredHeaders() throws {
        let spec = try TempStubs(Self.spec30)
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { method: GET, path: /data/2.5/weather }
                responses:
                  - { status: 429, json: { message: slow down } }
                  - { status: 503, json: { message: down } }
            """])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("openapi.yaml").path])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("stubd.yml:2: GET /data/2.5/weather 429 (answer 1 of 2): no Retry-After header, which the spec requires"), "\(r.error)")
        #expect(r.error.contains("stubd.yml:2: GET /data/2.5/weather 503 (answer 2 of 2): the spec declares no 503 response for GET /data/2.5/weather (it declares 200, 429)"), "\(r.error)")
    }

    /// 3.1 in JSON: `type: [..., "null"]` and a circular `$ref` between two components.
    @Test func anOpenAPI31SpecInJSONWithACircularReferenceIsRead() throws {
        let spec = try TempStubs(["api.json": #"""
            {"openapi": "3.1.0", "info": {"title": "Tree", "version": "1"},
             "paths": {"/nodes/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
               "responses": {"200": {"description": "a node", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}}},
             "components": {"schemas": {
               "Node": {"type": "object", "required": ["label"], "properties": {"label": {"type": ["string", "null"]}, "children": {"type": "array", "items": {"$ref": "#/components/schemas/Child"}}}},
               "Child": {"$ref": "#/components/schemas/Node"}}}}
            """#])
        let stubs = try TempStubs(["nodes/{id}.json": #"{"label": null, "children": [{"label": "a", "children": [{"label": 7}]}]}"#])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("api.json").path])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("1 problem"), "\(r.error)")
        #expect(r.error.contains("nodes/{id}.json:1:68: GET /nodes/{id} 200: /children/0/children/0/label: expected a string or null"), "\(r.error)")
    }

    @Test func aSpecThatIsNotOpenAPIIsNamedAndNothingIsServed() throws {
        // Swagger 2.0 and a missing `info` are read now (SwaggerTwoTests, LenientSpecTests).
        let spec = try TempStubs(["asyncapi.yaml": "asyncapi: 2.6.0\ninfo: { title: x, version: \"1\" }\n",
                                  "noin.yaml": "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      parameters: [{name: q}]\n      responses: {}\n"])
        let stubs = try TempStubs(["a.json": "{}"])
        let old = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("asyncapi.yaml").path])
        #expect(old.status == 1)
        #expect(old.error.contains("asyncapi.yaml: no 'openapi' field saying the version"), "\(old.error)")
        let bad = try run(stubdBinary.path, ["serve", "--stubs", stubs.url.path, "--port", "0", "--spec", spec.url.appendingPathComponent("noin.yaml").path])
        #expect(bad.status == 1)
        #expect(bad.error.contains("noin.yaml:5:20: #/paths/~1a/get/parameters/0: not a valid OpenAPI 3.1.0 document: Expected to find `in` key"), "\(bad.error)")
    }

    @Test func serveRefusesAFolderThatBreaksTheContract() throws {
        let spec = try TempStubs(Self.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": #"{"name": "London", "main": {"temp": "warm"}}"#])
        let r = try run(stubdBinary.path, ["serve", "--stubs", stubs.url.path, "--port", "0", "--no-watch",
                                           "--spec", spec.url.appendingPathComponent("openapi.yaml").path])
        #expect(r.status == 1)
        #expect(r.error.contains("data/2.5/weather.json:1:37: GET /data/2.5/weather 200: /main/temp: expected a number"), "\(r.error)")
    }

    /// The example app's stubs against the contract of the API it calls (Examples/WeatherApp/openapi.yaml):
    /// a stub that drifts from it fails here, so CI catches it.
    @Test func theExampleStubsKeepToTheExampleAppsContract() throws {
        let spec = repositoryRoot.appendingPathComponent("Examples/WeatherApp/openapi.yaml").path
        let r = try run(stubdBinary.path, ["check", "--stubs", exampleStubs.path, "--spec", spec])
        #expect(r.status == 0, "\(r.error)")
        #expect(r.output.contains("every answer keeps to openapi.yaml (OpenAPI 3.0.3, 1 operations)"), "\(r.output)")
        // The four conditions files are the operation's stubs, each checked, not passed over as unmatched.
        #expect(!r.output.contains("conditions/q/CA/San_Francisco.json) matches no operation"), "\(r.output)")
        #expect(!r.output.contains("has no stub"), "\(r.output)")

        let sanFrancisco = try String(contentsOf: exampleStubs.appendingPathComponent("api/{key}/conditions/q/CA/San_Francisco.json"), encoding: .utf8)
        let drifted = try TempStubs(["api/{key}/conditions/q/CA/San_Francisco.json":
            sanFrancisco.replacingOccurrences(of: #""temp_f": 76.5"#, with: #""temp_f": "76.5""#)])
        let bad = try run(stubdBinary.path, ["check", "--stubs", drifted.url.path, "--spec", spec])
        #expect(bad.status == 1)
        #expect(bad.error.contains("api/{key}/conditions/q/CA/San_Francisco.json:30:15: GET /api/{key}/conditions/q/{state}/{city}.json 200: /current_observation/temp_f: expected a number"), "\(bad.error)")
    }

    @Test func validateWithoutASpecIsRefused() throws {
        let r = try run(stubdBinary.path, ["serve", "--stubs", exampleStubs.path, "--port", "0", "--validate", "requests=strict"])
        #expect(r.status != 0)
        #expect(r.error.contains("--validate requests=strict says what to do with requests that break a spec: add --spec FILE"), "\(r.error)")
        let typo = try run(stubdBinary.path, ["serve", "--stubs", exampleStubs.path, "--port", "0", "--validate", "requests=warn"])
        #expect(typo.status != 0)
        #expect(typo.error.contains("The value 'requests=warn' is invalid for '--validate <requests=mode>'. Please provide one of 'requests=report', 'requests=strict' or 'requests=off'."), "\(typo.error)")
    }

    /// The default with a spec, `report`: the stub is served, and the problem is in the journal, the
    /// log line and an `X-Stubd-Contract` header; the Swift client turns it into `StubdError`.
    @Test func byDefaultABrokenRequestGetsTheStubAndTheProblemIsReportedEverywhere() async throws {
        let spec = try TempStubs(Self.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let serve = try ServeProcess(["--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("openapi.yaml").path])
        let bad = try await get(serve.baseURL, "/data/2.5/weather?q=London&units=celsius")
        #expect(bad.status == 200)
        #expect(bad.text.contains("London"))
        let header = bad.header("X-Stubd-Contract") ?? ""
        #expect(header.hasPrefix("1 problem: query.units: ") && header.contains("celsius"), "\(header)")

        let good = try await get(serve.baseURL, "/data/2.5/weather?q=London&units=metric")
        #expect(good.status == 200 && good.header("X-Stubd-Contract") == nil)

        let client = StubdClient(baseURL: serve.baseURL)
        let journal = try await client.requests()
        let reported = journal.requests.compactMap(\.contract)
        #expect(reported.count == 1, "\(journal.requests)")
        #expect(reported.first?.first?.hasPrefix("query.units: ") == true, "\(reported)")
        do {
            try await client.requireRequestsKeepToContract()
            Issue.record("a request broke the spec, and nothing was thrown")
        } catch let error as StubdError {
            #expect(error.description.contains("GET /data/2.5/weather?q=London&units=celsius") && error.description.contains("query.units"), "\(error)")
        }
        // The log line says it too (read while the server runs).
        let deadline = Date().addingTimeInterval(10)
        while !serve.log.contains("breaks the spec: query.units"), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(serve.log.contains("breaks the spec: query.units"), "\(serve.log)")
    }
}

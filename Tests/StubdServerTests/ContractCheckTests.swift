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
    /// A 3.0 spec whose answer schema is in a second file and refers to itself.
    static let spec30 = [
        "openapi.yaml": """
            openapi: 3.0.3
            info: { title: Weather, version: "1" }
            paths:
              /data/2.5/weather:
                get:
                  parameters:
                    - { name: q, in: query, required: true, schema: { type: string } }
                    - { name: units, in: query, schema: { type: string, enum: [standard, metric, imperial] } }
                    - { name: cnt, in: query, schema: { type: integer, minimum: 1 } }
                  responses:
                    "200":
                      description: the weather
                      content:
                        application/json:
                          schema: { $ref: "schemas/weather.yaml#/Weather" }
                    "429":
                      description: slow down
                      headers:
                        Retry-After: { required: true, schema: { type: integer } }
              /data/2.5/forecast:
                get:
                  responses:
                    "200": { description: a forecast, content: { application/json: { schema: { type: object } } } }
            """,
        "schemas/weather.yaml": """
            Weather:
              type: object
              additionalProperties: false
              required: [name, main]
              properties:
                name: { type: string }
                dt: { type: string, format: date-time }
                main:
                  type: object
                  required: [temp]
                  properties:
                    temp: { type: number }
                    humidity: { type: integer }
                    kind: { type: string, enum: [rain, sun, clouds] }
                next: { $ref: "#/Weather" }
            """,
    ]

    /// Server options holding stubs (and, by `validation`, requests) to `spec30`, written to a folder of its own.
    static func servingSpec30(_ validation: RequestValidationMode = .report) throws -> StubServer.Options {
        let spec = try TempStubs(Self.spec30)
        var options = StubServer.Options()
        options.contract = try APIContract.load(spec: spec.url.appendingPathComponent("openapi.yaml"))
        options.requestValidation = validation
        return options
    }

    static let goodAnswer = #"{"name": "London", "dt": "2024-05-01T12:00:00Z", "main": {"temp": 11.5, "kind": "rain"}, "next": {"name": "Paris", "main": {"temp": 14}}}"#

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

    /// A served folder edited into breaking the contract keeps serving what it served, as a broken stub would.
    @Test func aReloadThatBreaksTheContractKeepsThePreviousAnswers() async throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let options = try Self.servingSpec30()
        let server = try StubServer(stubs: stubs.url, options: options)
        defer { server.stopSynchronously() }
        try stubs.write("data/2.5/weather.json", #"{"name": "London", "main": {"temp": 1}, "wind": 3}"#)
        #expect(throws: CatalogLoadError.self) { try server.reload() }
        do { try server.reload() } catch {
            #expect(error.description.contains("data/2.5/weather.json:1:49: GET /data/2.5/weather 200: /wind: the property 'wind' is not allowed here"), "\(error)")
        }
        let answer = try await get(server.baseURL, "/data/2.5/weather")
        #expect(answer.status == 200)
        #expect(answer.text.contains("\"Paris\""))
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

    @Test func healthSaysWhichSpecIsLoaded() async throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let options = try Self.servingSpec30()
        let held = try StubServer(stubs: stubs.url, options: options)
        defer { held.stopSynchronously() }
        let report = try await get(held.baseURL, "/__stubd/health").json
        let described = report["spec"] as? [String: Any]
        #expect(described?["file"] as? String == "openapi.yaml", "\(report)")
        #expect(described?["openapi"] as? String == "3.0.3", "\(report)")
        #expect(described?["operations"] as? Int == 2, "\(report)")

        let plain = try StubServer(stubs: stubs.url)
        defer { plain.stopSynchronously() }
        #expect(try await get(plain.baseURL, "/__stubd/health").json["spec"] == nil)
    }

    /// `--validate requests=strict`: a request the spec refuses is answered 422, each error named; one it takes gets the stub.
    @Test func aStrictServerAnswers422NamingEachWayTheRequestBreaksTheSpec() async throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let options = try Self.servingSpec30(.strict)
        let server = try StubServer(stubs: stubs.url, options: options)
        defer { server.stopSynchronously() }

        let bad = try await get(server.baseURL, "/data/2.5/weather?units=celsius&cnt=two")
        #expect(bad.status == 422)
        #expect(bad.header("Content-Type") == "application/problem+json")
        let errors = (bad.json["validation"] as? [[String: Any]]) ?? []
        let shown = errors.map { "\($0["location"] ?? "") \($0["code"] ?? ""): \($0["message"] ?? "")" }
        #expect(shown.count == 3, "\(shown)")
        #expect(shown.contains("query.q required: the query parameter 'q' is required"), "\(shown)")
        #expect(shown.contains { $0.hasPrefix("query.units enum: expected one of \"standard\", \"metric\", or \"imperial\"") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("query.cnt type: expected an integer") }, "\(shown)")

        let good = try await get(server.baseURL, "/data/2.5/weather?q=London&units=metric&cnt=3")
        #expect(good.status == 200)
        #expect(good.text.contains("Paris"))
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

    /// `GET /__stubd/contract`: the spec in force and its notices on the catalog; 404 saying how to load one without.
    @Test func theAdminAPISaysWhichSpecAndWhatItNoticed() async throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer, "extra.json": "{}"])
        let options = try Self.servingSpec30()
        try await withServer(stubs.url, options: options) { server in
            let report = try await StubdClient(baseURL: server.baseURL).contract()
            #expect(report.file == "openapi.yaml" && report.openapi == "3.0.3" && report.requests == "report")
            #expect(report.operations == ["GET /data/2.5/forecast", "GET /data/2.5/weather"], "\(report.operations)")
            #expect(report.notices.contains { $0.hasPrefix("GET /extra") && $0.contains("matches no operation") }, "\(report.notices)")
            #expect(report.notices.contains { $0.hasPrefix("GET /data/2.5/forecast") && $0.contains("has no stub") }, "\(report.notices)")
        }
        try await withServer(stubs.url) { server in
            let r = try await get(server.baseURL, "/__stubd/contract")
            #expect(r.status == 404 && r.text.contains("stubd serve --spec FILE"), "\(r.text)")
        }
    }

    /// `requests=off`: nothing is held to the spec on the request side.
    @Test func validateOffChecksNoRequest() async throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let options = try Self.servingSpec30(.off)
        try await withServer(stubs.url, options: options) { server in
            let r = try await get(server.baseURL, "/data/2.5/weather?units=celsius")
            #expect(r.status == 200 && r.header("X-Stubd-Contract") == nil)
        }
    }

    /// A template's answer can only be held to the spec once rendered: a rendered body that breaks
    /// the schema is reported as the request's problems are.
    @Test func aRenderedTemplateThatBreaksTheSpecIsReported() async throws {
        let stubs = try TempStubs(["data/2.5/weather.tmpl.json": #"{"name": "{{request.query.q}}", "main": {"temp": "{{request.query.t}}"}}"#])
        let options = try Self.servingSpec30()
        try await withServer(stubs.url, options: options) { server in
            let r = try await get(server.baseURL, "/data/2.5/weather?q=Oslo&t=cold")
            #expect(r.status == 200)
            let header = r.header("X-Stubd-Contract") ?? ""
            #expect(header.hasPrefix("1 problem: answer: /main/temp"), "\(header)")
            let journal = try await server.requests()
            #expect(journal.requests.first?.contract?.first?.hasPrefix("answer: /main/temp") == true, "\(journal.requests)")
        }
    }
}

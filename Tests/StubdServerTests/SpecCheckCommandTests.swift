import Foundation
import Stubd
import StubdClient
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// `stubd check --spec`: stubs held to an OpenAPI contract, run as a user would, no server started.
/// Split from ContractCheckTests, which keeps `stubd serve --spec`.
@Suite struct SpecCheckCommandTests {
    @Test func eachOfTheFiveViolationsIsALoadErrorAtItsPlaceInTheStub() throws {
        let spec = try TempStubs(ContractCheckTests.spec30)
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
        let spec = try TempStubs(ContractCheckTests.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": ContractCheckTests.goodAnswer, "data/2.5/onecall.json": "{}"])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("openapi.yaml").path])
        #expect(r.status == 0, "\(r.error)")
        #expect(r.output.contains("notice: GET /data/2.5/onecall.json (data/2.5/onecall.json) matches no operation in openapi.yaml"), "\(r.output)")
        #expect(r.output.contains("notice: GET /data/2.5/forecast in openapi.yaml has no stub"), "\(r.output)")
        #expect(r.output.contains("every answer keeps to openapi.yaml (OpenAPI 3.0.3, 2 operations)"), "\(r.output)")
    }

    @Test func aManifestAnswerIsCheckedForItsStatusAndRequiredHeaders() throws {
        let spec = try TempStubs(ContractCheckTests.spec30)
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
}

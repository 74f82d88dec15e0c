import Foundation
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// The `stubd` binary's commands that start no server, run as a user would: `version`, `check`
/// (its route table, every problem at its place), and `hits`/`reset` with no server to ask. Split
/// from CLITests, which keeps what `stubd serve` does.
@Suite struct OfflineCommandTests {
    /// What the Homebrew formula's test and scripts/build-release read: the version alone, the one
    /// /__stubd/health reports.
    @Test func versionPrintsTheServersVersion() throws {
        let r = try run(stubdBinary.path, ["--version"])
        #expect(r.status == 0)
        #expect(r.output == StubEngine.version + "\n")
        #expect(r.output.wholeMatch(of: /\d+\.\d+\.\d+\n/) != nil, "\(r.output)")
    }

    @Test func checkPrintsTheRouteTable() throws {
        let r = try run(stubdBinary.path, ["check", "--stubs", exampleStubs.path])
        #expect(r.status == 0)
        #expect(r.output.contains("GET /api/{key}/conditions/q/CA/San_Francisco.json"))
        #expect(r.output.contains("wunderground"))
    }

    @Test func checkListsEveryProblemAndExits1() throws {
        let stubs = try TempStubs(["bad.json": "{\n  \"a\": 1,\n}\n", "stubd.yml": "routes:\n  - { request: { path: /x }, respose: {} }\n"])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status == 1)
        #expect(r.error.contains("2 problems"))
        #expect(r.error.contains("bad.json:3:1: invalid JSON: trailing comma before '}'"))
        #expect(r.error.contains("stubd.yml:2:"))
        #expect(r.error.contains("did you mean 'response'?"))
    }

    @Test func checkReportsARouteThatDiffersOnlyInItsParameterName() throws {
        let stubs = try TempStubs([
            "stubd.yml": "routes:\n  - { request: { path: \"/u/{id}\" }, response: { status: 200 } }\n  - { request: { path: \"/u/{name}\" }, response: { status: 201 } }\n",
            "greet/{zip}.tmpl.json": #"{"zip": "{{request.path.zip}}"}"#,
            "greet/{code}.tmpl.json": #"{"code": "{{request.path.code}}"}"#,
        ])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("2 problems"), "\(r.error)")
        #expect(r.error.contains("stubd.yml:3: this route can never match: the route at stubd.yml:2 takes the same requests first"), "\(r.error)")
        #expect(r.error.contains("greet/{zip}.tmpl.json: this file can never answer: greet/{code}.tmpl.json takes the same requests first"), "\(r.error)")
    }

    @Test func checkListsEveryMistakeOfAJSONTemplateWhereItWasWritten() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: "/forecast/{zip}" }
                response:
                  template: true
                  json:
                    zip: "{{request.path.zp}}"
                    date: "{{now format='yyyy-MM-dd' timezone='America/New_Yrok'}}"
                    city: "{{request.qurey.city}}"
                    hits: "{{hitz}}"
            """])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status == 1)
        #expect(r.error.contains("4 problems"), "\(r.error)")
        for place in ["stubd.yml:6:17: template: request.path.zp", "stubd.yml:7:18: template: unknown timezone",
                      "stubd.yml:8:18: template: a request has no 'qurey'", "stubd.yml:9:18: template: unknown value or helper 'hitz'"] {
            #expect(r.error.contains(place), "\(place) in \(r.error)")
        }
    }

    @Test func aStrictJSONManifestRejectsATrailingComma() throws {
        let stubs = try TempStubs(["stubd.json": "{\"routes\": [\n  {\"request\": {\"path\": \"/x\"}, \"response\": {\"status\": 204}},\n]}\n"])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status == 1, "a trailing comma YAML would take: \(r.output)")
        #expect(r.error.contains("stubd.json:3:1: not valid JSON"), "\(r.error)")
        #expect(r.error.contains("stubd.yml takes YAML"), "\(r.error)")
    }

    @Test(arguments: ["hits", "reset"])
    func withNoServerTheCommandSaysHowToStartOne(command: String) throws {
        let r = try run(stubdBinary.path, [command, "--url", "http://127.0.0.1:9"])
        #expect(r.status == 1)
        #expect(r.error.contains("no stubd answers at http://127.0.0.1:9"), "\(r.error)")
        #expect(r.error.contains("stubd serve"), "\(r.error)")
        #expect(!r.error.contains("unset STUBD_URL"), "that advice is for test fixtures: \(r.error)")
    }
}

import Foundation
import Testing
@testable import StubdCore

@Suite struct ConventionTests {
    @Test func aFileAnswersItsPathWithAndWithoutItsExtension() throws {
        let stubs = try TempStubs(["api/conditions/q/CA/San_Francisco.json": #"{"t": 1}"#])
        let catalog = try stubs.load()
        #expect(catalog.route("GET", "/api/conditions/q/CA/San_Francisco.json") != nil)
        #expect(catalog.route("GET", "/api/conditions/q/CA/San_Francisco") != nil)
        #expect(catalog.route("HEAD", "/api/conditions/q/CA/San_Francisco.json") != nil)
        #expect(catalog.route("GET", "/api/conditions/q/CA/San_Francisco.xml") == nil)
        #expect(catalog.route("GET", "/api/conditions/q/CA/San_Francisco.json?any=query") != nil)
    }

    @Test func braceSegmentsMatchAnyOneSegment() throws {
        let stubs = try TempStubs(["api/{key}/forecast/q/{zip}.json": "{}"])
        let catalog = try stubs.load()
        guard case .matched(_, let params) = catalog.match(RequestHead(method: "GET", path: "/api/K1/forecast/q/94107.json")) else {
            Issue.record("no match"); return
        }
        #expect(params == ["key": "K1", "zip": "94107"])
        #expect(catalog.route("GET", "/api/K1/forecast/q/94107") != nil)
        #expect(catalog.route("GET", "/api/K1/x/forecast/q/94107.json") == nil)
    }

    @Test func aMethodInfixSetsTheMethod() throws {
        let catalog = try TempStubs(["v1/reports.POST.json": "{}"]).load()
        #expect(catalog.route("POST", "/v1/reports") != nil)
        #expect(catalog.route("POST", "/v1/reports.json") != nil)
        #expect(catalog.route("GET", "/v1/reports") == nil)
        if case .wrongMethod(let allowed, _) = catalog.match(RequestHead(method: "GET", path: "/v1/reports")) {
            #expect(allowed.contains("POST"))
        } else {
            Issue.record("expected wrongMethod")
        }
    }

    @Test(arguments: [("a.json", "application/json; charset=utf-8"), ("a.xml", "application/xml; charset=utf-8"),
                      ("a.html", "text/html; charset=utf-8"), ("a.csv", "text/csv; charset=utf-8"),
                      ("a.png", "image/png"), ("a.weird", "application/octet-stream"), ("a", "application/octet-stream")])
    func theExtensionPicksTheContentType(file: String, type: String) throws {
        let catalog = try TempStubs([file: file.hasSuffix(".json") ? "{}" : "x"]).load()
        let route = try #require(catalog.routes.first)
        #expect(route.responses[0].headers.first { $0.name == "Content-Type" }?.value == type)
    }

    @Test func dotFilesFilesFolderAndManifestAreNotServed() throws {
        let catalog = try TempStubs([".DS_Store": "x", "a/.hidden.json": "{}", "__files/body.json": "{}",
                                     "stubd.yml": "routes: []", "ok.json": "{}"]).load()
        #expect(catalog.routes.map(\.signature) == ["GET /ok.json"])
    }

    @Test func literalBeatsParameterLeftToRight() throws {
        let catalog = try TempStubs(["a/{x}/c.json": #"{"w": "param"}"#, "a/b/{y}.json": #"{"w": "literal"}"#]).load()
        #expect(catalog.route("GET", "/a/b/c.json")?.source == .convention(file: "a/b/{y}.json"))
        #expect(catalog.route("GET", "/a/z/c.json")?.source == .convention(file: "a/{x}/c.json"))
    }

    @Test func brokenJSONNamesFileLineAndColumn() throws {
        let problems = try TempStubs(["ok.json": "{}", "api/bad.json": "{\n  \"a\": 1\n  \"b\": 2\n}"]).problems()
        #expect(problems.count == 1)
        let p = try #require(problems.first)
        #expect(p.file == "api/bad.json")
        #expect(p.line == 3)
        #expect(p.column == 3)
        #expect(p.description.hasPrefix("api/bad.json:3:3: invalid JSON"))
        #expect(p.hint?.contains("malformed_json") == true)
    }

    @Test func aSymlinkOutOfTheRootIsALoadError() throws {
        let stubs = try TempStubs(["ok.json": "{}"])
        try FileManager.default.createSymbolicLink(atPath: stubs.url.appendingPathComponent("passwd").path,
                                                   withDestinationPath: "/etc/passwd")
        let problems = stubs.problems()
        #expect(problems.map(\.file) == ["passwd"])
        #expect(problems.first?.message.contains("outside the stubs directory") == true)
    }

    @Test func aSymlinkInsideTheRootIsServed() throws {
        let stubs = try TempStubs(["real.json": #"{"a": 1}"#])
        try FileManager.default.createSymbolicLink(atPath: stubs.url.appendingPathComponent("alias.json").path,
                                                   withDestinationPath: stubs.url.appendingPathComponent("real.json").path)
        #expect(try stubs.load().route("GET", "/alias.json") != nil)
    }

    @Test func aMissingDirectorySaysSo() {
        #expect(throws: CatalogLoadError.self) { try StubCatalog.load(stubs: URL(fileURLWithPath: "/nonexistent/Stubs")) }
    }
}

@Suite struct ManifestTests {
    @Test func routesMatchOnQueryHeadersAndBody() throws {
        let catalog = try TempStubs([
            "__files/owm/london.json": #"{"name": "London"}"#,
            "stubd.yml": """
            routes:
              - name: london
                request: { path: /data/2.5/weather, query: { q: London, appid: "*" } }
                response: { file: owm/london.json }
              - name: json-accept
                request: { path: /h, headers: { Accept: application/json } }
                response: { status: 204 }
              - name: metric
                request: { method: POST, path: /b, body: { json: { units: metric } } }
                response: { json: { ok: true } }
              - name: contains
                request: { method: POST, path: /c, body: { contains: "needle" } }
                response: { body: found }
            """,
        ]).load()
        #expect(catalog.route("GET", "/data/2.5/weather?q=London&appid=abc")?.name == "london")
        #expect(catalog.route("GET", "/data/2.5/weather?q=London") == nil)
        #expect(catalog.route("GET", "/data/2.5/weather?q=Paris&appid=abc") == nil)
        #expect(catalog.route("GET", "/h", headers: [("accept", "application/json")])?.name == "json-accept")
        #expect(catalog.route("GET", "/h", headers: [("Accept", "text/html")]) == nil)
        #expect(catalog.route("POST", "/b", body: #"{ "units" : "metric" }"#)?.name == "metric")
        #expect(catalog.route("POST", "/b", body: #"{"units": "imperial"}"#) == nil)
        #expect(catalog.route("POST", "/c", body: "a needle here")?.name == "contains")
        let london = try #require(catalog.route("GET", "/data/2.5/weather?q=London&appid=1"))
        #expect(String(decoding: london.responses[0].body, as: UTF8.self) == #"{"name": "London"}"#)
    }

    @Test func aManifestRouteBeatsAFileUnlessPrioritySaysOtherwise() throws {
        let files: [String: String] = [
            "a.json": #"{"from": "file"}"#,
            "stubd.yml": "routes:\n  - { name: m, request: { path: /a.json }, response: { status: 201 } }\n",
        ]
        #expect(try TempStubs(files).load().route("GET", "/a.json")?.name == "m")
        var demoted = files
        demoted["stubd.yml"] = "routes:\n  - { name: m, request: { path: /a.json }, response: { status: 201 }, priority: 20 }\n"
        #expect(try TempStubs(demoted).load().route("GET", "/a.json")?.name == nil)
    }

    @Test func everyProblemIsReportedAtOnceWithLineAndHint() throws {
        let problems = try TempStubs(["stubd.yml": """
            routes:
              - name: a
                request: { path: /a }
                respnse: { status: 200 }
              - name: b
                request: { path: /b }
                response: { file: missing.json, delay: soon }
              - name: c
                request: { path: /c }
                response: { status: 200, fault: explode }
            """]).problems()
        #expect(problems.count == 4, "\(problems)")
        let unknown = try #require(problems.first { $0.message.contains("respnse") })
        #expect(unknown.line == 4)
        #expect(unknown.hint == "did you mean 'response'?")
        #expect(problems.contains { $0.message.contains("missing.json") && $0.line == 7 })
        #expect(problems.contains { $0.message.contains("'soon' is not a duration") })
        #expect(problems.contains { $0.message.contains("unknown fault 'explode'") && $0.hint?.contains("connection_reset") == true })
    }

    @Test func aRouteThatCanNeverMatchIsReported() throws {
        let problems = try TempStubs(["stubd.yml": """
            routes:
              - { request: { path: /x }, response: { status: 200 } }
              - { request: { path: /x }, response: { status: 500 } }
            """]).problems()
        #expect(problems.count == 1)
        #expect(problems.first?.line == 3)
        #expect(problems.first?.message.contains("can never match") == true)
    }

    @Test func aRouteWhoseParameterIsOnlyRenamedCanNeverMatch() throws {
        let problems = try TempStubs(["stubd.yml": """
            routes:
              - { request: { path: "/u/{id}" }, response: { status: 200 } }
              - { request: { path: "/u/{name}" }, response: { status: 500 } }
              - { request: { path: "/v/x{id}.json" }, response: { status: 200 } }
              - { request: { path: "/v/x{name}.json" }, response: { status: 500 } }
              - { request: { path: "/v/{name}.json" }, response: { status: 200 } }
            """]).problems()
        #expect(problems.map(\.line) == [3, 5], "\(problems)")
        #expect(problems.first?.message.contains("can never match: the route at stubd.yml:2") == true)
        #expect(problems.first?.hint?.contains("'/u/{id}' and '/u/{name}' differ only in parameter names") == true)
    }

    @Test func twoFilesWhoseParameterIsOnlyRenamedAreReported() throws {
        let problems = try TempStubs([
            "greet/{zip}.tmpl.json": #"{"zip": "{{request.path.zip}}"}"#,
            "greet/{code}.tmpl.json": #"{"code": "{{request.path.code}}"}"#,
            "greet/{code}.xml": "<a/>",
            "other/{id}.json": "{}",
        ]).problems()
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.file == "greet/{zip}.tmpl.json")
        #expect(problems.first?.message == "this file can never answer: greet/{code}.tmpl.json takes the same requests first")
    }

    @Test func badYAMLSaysWhere() throws {
        let problems = try TempStubs(["stubd.yml": "routes:\n  - request: { path: /x\n    response: {}\n"]).problems()
        #expect(problems.first?.file == "stubd.yml")
        #expect(problems.first?.line != nil)
        #expect(problems.first?.message.contains("not valid YAML") == true)
    }

    @Test func quotaMistakesAreLoadErrors() throws {
        let problems = try TempStubs([
            "api/{key}/x.json": "{}",
            "stubd.yml": """
            quotas:
              - name: q1
                routes: ["GET /api/{key}/**"]
                key: { path: apikey }
                limits: ["ten/minute"]
                exceeded: { profile: acme }
              - name: q2
                routes: ["GET /nothing/**", "no-such-route"]
                limits: ["1/day"]
            """,
        ]).problems()
        #expect(problems.contains { $0.message.contains("'ten/minute'") && $0.line == 5 })
        #expect(problems.contains { $0.message.contains("unknown profile 'acme'") && $0.line == 6 })
        #expect(problems.contains { $0.message.contains("no {apikey} segment") && $0.hint?.contains("{ path: key }") == true })
        #expect(problems.contains { $0.message.contains("'GET /nothing/**' matches no route") })
        #expect(problems.contains { $0.message.contains("'no-such-route', which does not exist") })
    }

    @Test(arguments: ["200ms", "1.5s", "2m", "0ms", "150"])
    func durationsParse(text: String) {
        #expect(ManifestParser.parseDuration(text) != nil)
    }

    @Test(arguments: ["-5ms", "fast", "1.5", "10x", "ms", "2d"])
    func badDurationsDoNot(text: String) {
        if text == "1.5" { #expect(ManifestParser.parseDuration(text) != nil); return }
        #expect(ManifestParser.parseDuration(text) == nil)
    }
}

@Suite struct NetworkBehaviourManifestTests {
    @Test func sequenceDelayAndFaultMistakesAreLoadErrorsWithLines() throws {
        let problems = try TempStubs(["stubd.yml": """
            routes:
              - { name: a, request: { path: /a }, responses: [] }
              - { name: b, request: { path: /b }, response: { status: 200, delay: -5ms } }
              - { name: c, request: { path: /c }, response: { status: 200 }, times: 0 }
              - { name: d, request: { path: /d }, response: { fault: boom } }
              - { name: e, request: { path: /e }, response: { delay: { uniform: [300ms, 50ms] } } }
              - { name: f, request: { path: /f }, response: { throttle: { bytes_per_second: 0 } } }
            """]).problems()
        #expect(problems.contains { $0.line == 2 && $0.message.contains("'responses' is empty") })
        #expect(problems.contains { $0.line == 3 && $0.message.contains("'-5ms' is not a duration") })
        #expect(problems.contains { $0.line == 4 && $0.message.contains("'times' must be at least 1") })
        #expect(problems.contains { $0.line == 5 && $0.message.contains("unknown fault 'boom'") })
        #expect(problems.contains { $0.line == 6 && $0.message.contains("must not exceed") })
        #expect(problems.contains { $0.line == 7 && $0.message.contains("bytes_per_second must be at least 1") })
    }
}

import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdProtocol
import StubdCoreTestSupport

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
        #expect(catalog.route("GET", "/h", headers: fields(["accept": "application/json"]))?.name == "json-accept")
        #expect(catalog.route("GET", "/h", headers: fields(["Accept": "text/html"])) == nil)
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

    /// A header name with a space or a colon cannot go on the wire (libmicrohttpd refuses it and the
    /// header vanishes): a load error at its key, naming it.
    @Test func aHeaderNameThatIsNotATokenIsALoadErrorAtItsKey() throws {
        let problems = try TempStubs(["stubd.yml": """
            defaults:
              headers: { "X Team": blue }
            routes:
              - request: { path: /a }
                response:
                  status: 200
                  headers: { "X-Ok": "1", "Bad:Name": "2" }
            """]).problems()
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.message == "'X Team' is not a header name" && $0.line == 2 })
        #expect(problems.contains { $0.message == "'Bad:Name' is not a header name" && $0.line == 7 })
    }

    /// A request header condition no request could meet (its name is not a token) is a load error
    /// at its key, not a route that silently never answers.
    @Test func aRequestHeaderConditionThatIsNotAHeaderNameIsALoadError() throws {
        let problems = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /a, headers: { "X Team": blue, x-ok: "*" } }
                response: { status: 200 }
            """]).problems()
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.contains { $0.message == "'X Team' is not a header name" && $0.line == 2 }, "\(problems)")
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

    /// Issue 45 item 5: `limits: "10/minute"` was reported as "needs 'limits'", as if it were missing.
    @Test func aQuotasSingleLimitOrRouteWithoutBracketsSaysItMustBeAListAndHowToWriteIt() throws {
        let problems = try TempStubs([
            "v1/users.json": "[]",
            "stubd.yml": """
            quotas:
              - name: users
                routes: "GET /v1/users/**"
                limits: "10/minute"
            """,
        ]).problems()
        let limits = problems.first { $0.message.contains("'limits'") }
        #expect(limits?.message == "quota 'users': 'limits' must be a list, got the single value '10/minute'", "\(problems)")
        #expect(limits?.line == 4 && limits?.column == 13, "\(String(describing: limits))")
        #expect(limits?.hint?.hasPrefix("put it in brackets: limits: [\"10/minute\"]") == true, "\(String(describing: limits?.hint))")
        let routes = problems.first { $0.message.contains("'routes'") }
        #expect(routes?.message == "quota 'users': 'routes' must be a list, got the single value 'GET /v1/users/**'", "\(problems)")
        #expect(routes?.line == 3 && routes?.hint == "put it in brackets: routes: [\"GET /v1/users/**\"]")
    }

    @Test(arguments: ["200ms", "1.5s", "2m", "0ms", "150"])
    func durationsParse(text: String) {
        #expect(Duration(manifestText: text) != nil)
    }

    @Test(arguments: ["-5ms", "fast", "1.5", "10x", "ms", "2d"])
    func badDurationsDoNot(text: String) {
        if text == "1.5" { #expect(Duration(manifestText: text) != nil); return }
        #expect(Duration(manifestText: text) == nil)
    }
}

import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 58 item 4: two or more parameters in one path segment, as OpenAPI specs write tiles and
/// files (`/tiles/{z}/{x}/{y}.{format}`, `/files/{name}-{version}.{ext}`). Before, the pattern was
/// refused ("one parameter per segment"), so such a path could be neither stubbed nor imported.
@Suite struct CompoundPathSegmentTests {
    /// Throws where a `try!` would stop the whole run when the pattern is refused (as it was before).
    static func route(_ path: String, name: String? = nil) throws -> Route {
        Route(name: name, method: .only(.get), pattern: try PathPattern(parsing: path),
              responses: [CannedResponse(status: 200, headers: [:], body: Data(path.utf8))], priority: 5,
              source: .manifest(file: "stubd.yml", line: 1))
    }

    @Test func aTilePathCapturesEveryParameter() throws {
        let pattern = try PathPattern(parsing: "/tiles/{z}/{x}/{y}.{format}")
        #expect(pattern.parameterNames == ["z", "x", "y", "format"])
        #expect(pattern.match(PathPattern.split("/tiles/1/2/3.png")) == ["z": "1", "x": "2", "y": "3", "format": "png"])
        #expect(pattern.match(PathPattern.split("/tiles/1/2/3")) == nil, "the '.' is fixed text")
        #expect(pattern.match(PathPattern.split("/tiles/1/2/.png")) == nil, "y takes at least one character")
        #expect(pattern.match(PathPattern.split("/tiles/1/2/3.")) == nil, "format takes at least one character")
    }

    /// Earlier parameters take the shortest text that lets the rest match (as Prism reads values;
    /// path-to-regexp 8 gives `1.2` and `png` for the first).
    @Test(arguments: [
        ("{y}.{format}", "1.2.png", ["y": "1", "format": "2.png"]),
        ("{a}-{b}.{c}", "x-y-z.tar.gz", ["a": "x", "b": "y-z", "c": "tar.gz"]),
        ("v{major}.{minor}", "v1.2", ["major": "1", "minor": "2"]),
        ("{name}-{version}.{ext}", "stubd-1.0.0.tar.gz", ["name": "stubd", "version": "1", "ext": "0.0.tar.gz"]),
        ("{a}..{b}", "x...y", ["a": "x", "b": ".y"]),
        ("{a}.{b}.json", "p.q.json.json", ["a": "p", "b": "q.json"]),
        ("é{a}·{b}ü", "éx·y·zü", ["a": "x", "b": "y·z"]),
    ] as [(String, String, [String: String])])
    func earlierParametersTakeTheShortestText(segment: String, request: String, expected: [String: String]) throws {
        let pattern = try PathPattern(parsing: "/f/" + segment)
        #expect(pattern.match(["f", Substring(request)]) == expected)
    }

    @Test(arguments: [("v{major}.{minor}", "v1."), ("v{major}.{minor}", "1.2"), ("{a}-{b}.{c}", "x-.c"), ("{a}-{b}.{c}", "x.y-z"),
                      ("{a}..{b}", "x..")])
    func aSegmentWithoutRoomForEachParameterDoesNotMatch(segment: String, request: String) throws {
        #expect(try PathPattern(parsing: "/f/" + segment).match(["f", Substring(request)]) == nil)
    }

    @Test func touchingParametersAreRefusedNamingTheFix() {
        let error = #expect(throws: PatternError.self) { try PathPattern(parsing: "/files/{a}{b}") }
        #expect(error?.description == "parameters {a} and {b} touch in segment '{a}{b}', so where one ends cannot be known: "
                + "put fixed text between them ({a}-{b}) or give each a segment ({a}/{b})")
        #expect(throws: (any Error).self) { try PathPattern(parsing: "/files/{a}.{b}}") }
        #expect(throws: (any Error).self) { try PathPattern(parsing: "/files/{a}.{b") }
    }

    /// A compound segment ranks with a parameter that has fixed text: after a literal, before a bare
    /// parameter and `**`.
    @Test func specificityPutsACompoundSegmentWithParametersThatHaveFixedText() throws {
        let compound = try PathPattern(parsing: "/tiles/{y}.{format}")
        #expect(compound.isMoreSpecific(than: try PathPattern(parsing: "/tiles/{tile}")) == true)
        #expect(compound.isMoreSpecific(than: try PathPattern(parsing: "/tiles/**")) == true)
        #expect(try PathPattern(parsing: "/tiles/latest.png").isMoreSpecific(than: compound) == true)
        #expect(compound.isMoreSpecific(than: try PathPattern(parsing: "/tiles/{y}.png")) == nil)

        let matcher = RouteMatcher(routes: try ["/tiles/**", "/tiles/{tile}", "/tiles/{y}.{format}", "/tiles/latest.png"].map { try Self.route($0) })
        func winner(_ path: String) -> String? {
            if case .matched(let route, _) = matcher.match(RequestHead(method: .get, path: path), takingShortcut: false) { return route.pattern.text }
            return nil
        }
        #expect(winner("/tiles/latest.png") == "/tiles/latest.png")
        #expect(winner("/tiles/3.png") == "/tiles/{y}.{format}")
        #expect(winner("/tiles/3") == "/tiles/{tile}")
        #expect(winner("/tiles/3/4") == "/tiles/**")
    }

    @Test func aMissExplainsTheCompoundSegment() throws {
        let matcher = RouteMatcher(routes: [try Self.route("/tiles/{z}/{x}/{y}.{format}")])
        guard case .notFound(let misses) = matcher.match(RequestHead(method: .get, path: "/tiles/1/2/3")) else {
            Issue.record("matched without the '.'")
            return
        }
        #expect(misses.first?.reason == "path segment 4 differs: '3' here, '{y}.{format}' in the route", "\(misses)")
    }

    /// A convention file named like the spec's path is a stub of it, with or without its extension,
    /// and a template reads each parameter.
    @Test func aConventionFileWithACompoundSegmentAnswersAndTemplatesReadItsParameters() throws {
        let engine = StubEngine(catalog: try TempStubs([
            "tiles/{z}/{x}/{y}.{format}.tmpl.json": #"{"z": "{{request.path.z}}", "y": "{{request.path.y}}", "format": "{{request.path.format}}"}"#,
        ]).load())
        for path in ["/tiles/1/2/3.png", "/tiles/1/2/3.png.json"] {
            let outcome = engine.respond(to: RequestHead(method: .get, path: path), in: engine.defaultSession)
            #expect(outcome.status == 200, "\(path)")
            guard case .canned(let rendered, _) = outcome.answer else { Issue.record("\(path): no canned answer"); continue }
            #expect(String(decoding: rendered.body, as: UTF8.self) == #"{"z": "1", "y": "3", "format": "png"}"#, "\(path)")
        }
    }

    /// Without an extension of its own, the file's last parameter is a parameter, not an extension.
    @Test func aFileEndingInAParameterServesEveryValueOfIt() throws {
        let catalog = try TempStubs(["tiles/{y}.{format}": "tile"]).load()
        #expect(catalog.route("GET", "/tiles/3.png")?.pattern.text == "/tiles/{y}.{format}")
        #expect(catalog.route("GET", "/tiles/3.pbf")?.pattern.optionalExtension == nil)
    }

    @Test func aTemplateNamingAParameterTheRouteLacksIsStillALoadError() throws {
        let problems = try TempStubs(["tiles/{y}.{format}.tmpl.json": #"{"ext": "{{request.path.ext}}"}"#]).problems()
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.message.contains("request.path.ext") == true, "\(problems)")
    }

    /// A quota keyed by a parameter of a compound segment counts each value apart.
    @Test func aQuotaKeysOnAParameterOfACompoundSegment() throws {
        let engine = StubEngine(catalog: try TempStubs([
            "tiles/{z}/{y}.{format}.json": "{}",
            "stubd.yml": """
            quotas:
              - { name: tiles, routes: ["GET /tiles/{z}/{y}.{format}"], key: { path: format }, limits: ["1/minute"] }
            """,
        ]).load())
        func status(_ path: String) -> Int { engine.respond(to: RequestHead(method: .get, path: path), in: engine.defaultSession).status.code }
        #expect(status("/tiles/1/2.png") == 200)
        #expect(status("/tiles/1/3.png") == 429)
        #expect(status("/tiles/1/2.jpg") == 200)
    }

    /// `stubd drift` and `export har` build the one request a route stands for from `--secret` values.
    @Test func driftFillsEachParameterOfACompoundSegment() throws {
        let route = try Self.route("/tiles/{y}.{format}")
        let secrets = [NamedSecret(name: "y", value: "3"), NamedSecret(name: "format", value: "png")]
        guard case .success(let request) = DriftRequest.concreteRequest(for: route, secrets: secrets) else {
            Issue.record("no request")
            return
        }
        #expect(request.paths == ["/tiles/3.png"])
        guard case .failure(let why) = DriftRequest.concreteRequest(for: route, secrets: Array(secrets.prefix(1))) else {
            Issue.record("sent without a format")
            return
        }
        #expect(why.reason.contains("--secret format=VALUE"), "\(why.reason)")
    }

    static let tileSpec = """
        openapi: 3.0.3
        info: { title: tiles, version: "1" }
        paths:
          /tiles/{z}/{x}/{y}.{format}:
            parameters:
              - { name: z, in: path, required: true, schema: { type: integer } }
              - { name: x, in: path, required: true, schema: { type: integer } }
              - { name: y, in: path, required: true, schema: { type: integer } }
              - { name: format, in: path, required: true, schema: { type: string, enum: [png, pbf] } }
            get:
              responses:
                "200": { description: a tile, content: { application/json: { schema: { type: object } } } }
        """

    /// The contract matches a request to the operation and judges each captured value by its schema,
    /// and holds a convention stub named like the path to it.
    @Test func theContractJudgesEachParameterOfACompoundSegment() throws {
        let folder = try TempStubs(["openapi.yaml": Self.tileSpec])
        let contract = try APIContract.load(spec: folder.url.appendingPathComponent("openapi.yaml"))
        #expect(contract.violations(of: RequestHead(method: .get, path: "/tiles/1/2/3.png"))?.isEmpty == true)
        let broken = try #require(contract.violations(of: RequestHead(method: .get, path: "/tiles/1/2/3.gif")))
        #expect(broken.map { "\($0.location) \($0.code)" } == ["path.format enum"], "\(broken)")
        let notANumber = try #require(contract.violations(of: RequestHead(method: .get, path: "/tiles/1/2/three.png")))
        #expect(notANumber.map { "\($0.location) \($0.code)" } == ["path.y type"], "\(notANumber)")

        let stub = try TempStubs(["tiles/{z}/{x}/{y}.{format}.json": "{}"]).load()
        let route = try #require(stub.routes.first)
        #expect(contract.operation(for: route)?.path.text == "/tiles/{z}/{x}/{y}.{format}")
    }
}

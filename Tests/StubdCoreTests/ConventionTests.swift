import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

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
        guard case .matched(_, let params) = catalog.match(RequestHead(method: .get, path: "/api/K1/forecast/q/94107.json")) else {
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
        if case .wrongMethod(let allowed, _) = catalog.match(RequestHead(method: .get, path: "/v1/reports")) {
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
        #expect(route.responses[0].headers.first { $0.name.rawName == "Content-Type" }?.value == type)
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

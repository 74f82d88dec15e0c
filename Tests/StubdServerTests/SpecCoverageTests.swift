import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import Stubd
import StubdClient
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// Coverage with a spec loaded (issue 27): each operation × the statuses it documents, answered or
/// not, through a real server and the `stubd coverage` command.
@Suite struct SpecCoverageTests {
    static let spec = """
    openapi: 3.0.3
    info: {title: weather, version: "1"}
    paths:
      /weather/{city}:
        get:
          parameters: [{name: city, in: path, required: true, schema: {type: string}}]
          responses:
            "200":
              description: the weather
              content: {application/json: {schema: {type: object, properties: {temp: {type: number}}}}}
            "429":
              description: too many requests
              content: {application/json: {schema: {type: object}}}
            "404":
              description: no such city
      /health:
        get:
          responses:
            "200": {description: up}
            default: {description: an error}

    """

    static let stubs = [
        "stubd.yml": """
        routes:
          - name: weather
            request: { method: GET, path: "/weather/{city}" }
            response: { status: 200, json: { temp: 21.5 } }
          - name: weather-429
            request: { method: GET, path: "/weather/{city}", headers: { Prefer: "code=429" } }
            response: { status: 429, headers: { Retry-After: "30" }, json: { message: slow down } }

        """,
    ]

    func options() throws -> StubServer.Options {
        let folder = try TempStubs(["openapi.yaml": Self.spec])
        var options = StubServer.Options()
        options.contract = try APIContract.load(spec: folder.url.appendingPathComponent("openapi.yaml"))
        return options
    }

    static func operation(_ report: CoverageReport, _ name: String) -> CoverageReport.Operation? {
        report.operations?.first { $0.operation == name }
    }

    @Test func eachOperationListsItsDocumentedStatusesAnsweredAndHowToReachTheOthers() async throws {
        let (first, second) = try await withServer(try TempStubs(Self.stubs).url, options: try options()) { server in
            #expect(try await get(server.baseURL, "/weather/paris").status == 200)
            let first = try await server.coverage()
            #expect(try await get(server.baseURL, "/weather/paris", headers: ["Prefer": "code=429"]).status == 429)
            return (first, try await server.coverage())
        }
        let weather = try #require(Self.operation(first, "GET /weather/{city}"), "\(String(describing: first.operations))")
        #expect(weather.documented == [200, 404, 429])
        #expect(weather.answered == [200])
        #expect(weather.state == .partial)
        #expect(weather.routes == ["weather", "weather-429"])
        #expect(weather.hint(for: 429).contains("route weather-429 has it"), "\(weather.hint(for: 429))")
        #expect(weather.hint(for: 404).contains("no stub answers 404"), "\(weather.hint(for: 404))")
        let health = try #require(Self.operation(first, "GET /health"))
        #expect(health.documented == [200] && health.answered.isEmpty && health.state == .empty)
        // Two route items and four documented statuses; one of each reached.
        #expect(first.summary.items == 6 && first.summary.covered == 2, "\(first.summary)")

        let after = try #require(Self.operation(second, "GET /weather/{city}"))
        #expect(after.answered == [200, 429] && after.state == .partial)
        let message = try #require(second.uncoveredMessage(except: ["GET /health"]))
        #expect(message.contains("no test saw GET /weather/{city} answer 404, which the spec documents: no stub answers 404"), "\(message)")
        #expect(!message.contains("/health") && !message.contains("answer 429"), "\(message)")
        #expect(second.uncoveredMessage(except: ["GET /health", "GET /weather/{city}: 404"]) == nil)

        // Shards: one saw the 200, the other the 429; merged, the operation has both.
        let merged = CoverageReport.merged([first, try await withServer(try TempStubs(Self.stubs).url, options: try options()) { server in
            _ = try await get(server.baseURL, "/weather/oslo", headers: ["Prefer": "code=429"])
            return try await server.coverage()
        }])
        #expect(Self.operation(merged, "GET /weather/{city}")?.answered == [200, 429])
        #expect(Self.operation(merged, "GET /weather/{city}")?.hints?.map(\.status) == [404])
    }

    @Test func theCommandShowsOperationsInTheTableJUnitAndCTRFAndFailUnderCountsThem() async throws {
        let report = try await withServer(try TempStubs(Self.stubs).url, options: try options()) { server in
            _ = try await get(server.baseURL, "/weather/paris")
            _ = try await get(server.baseURL, "/weather/paris", headers: ["Prefer": "code=429"])
            return try await server.coverage()
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString).json")
        try JSONEncoder().encode(report).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        // Both routes' answers covered, two of four documented statuses: 4 of 6.
        let table = try run(stubdBinary.path, ["coverage", "--from", file.path, "--fail-under", "70"])
        #expect(table.status == 1, "\(table.output)")
        #expect(table.error.contains("66.6% of items covered (4 of 6)"), "\(table.error)")
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.contains(where: { $0.hasPrefix("-") && $0.contains("GET /weather/{city}") && $0.contains("404 (documented)") }), "\(table.output)")
        #expect(lines.contains(where: { $0.hasPrefix("-") && $0.contains("GET /health") && $0.contains("200 (documented)") }), "\(table.output)")
        #expect(lines.contains(where: { $0.hasPrefix("+") && $0.contains("GET /weather/{city}") && $0.contains(" 429 ") }), "\(table.output)")
        #expect(table.output.contains("spec operations: 0 full, 1 partial, 1 empty of 2"), "\(table.output)")

        let junit = try run(stubdBinary.path, ["coverage", "--from", file.path, "--format", "junit"])
        let root = try #require(try XMLDocument(data: Data(junit.output.utf8)).rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "6")
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 4)
        for suite in suites {
            let own = suite.elements(forName: "testcase")
            #expect(suite.attribute(forName: "tests")?.stringValue == String(own.count))
            #expect(suite.attribute(forName: "failures")?.stringValue == String(own.filter { !$0.elements(forName: "failure").isEmpty }.count))
        }
        let spec = suites.first { $0.attribute(forName: "name")?.stringValue == "GET /weather/{city}" && $0.elements(forName: "testcase").count == 3 }
        let names = spec?.elements(forName: "testcase").map { $0.attribute(forName: "name")?.stringValue } ?? []
        #expect(names == ["200", "404", "429"])

        let ctrf = try run(stubdBinary.path, ["coverage", "--from", file.path, "--format", "ctrf"])
        let document = try JSONSerialization.jsonObject(with: Data(ctrf.output.utf8)) as? [String: Any]
        let results = document?["results"] as? [String: Any]
        let tests = results?["tests"] as? [[String: Any]] ?? []
        #expect(tests.count == 6)
        #expect(tests.contains(where: { $0["name"] as? String == "GET /weather/{city}: 404" && $0["status"] as? String == "failed" }))
        let summary = results?["summary"] as? [String: Any]
        #expect(summary?["failed"] as? Int == 2)
    }

    /// Without a spec the report has no operations at all, as before.
    @Test func withoutASpecThereAreNoOperations() async throws {
        let report = try await withServer(try TempStubs(Self.stubs).url) { try await $0.coverage() }
        #expect(report.operations == nil)
        #expect(report.summary.items == 2)
    }
}

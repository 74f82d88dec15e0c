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
/// not, read by the `stubd coverage` command from a real server's report. What the report holds,
/// with no socket: SpecCoverageAnswerTests in StubdCoreTests; the spec and folder: `SpecCoverageStubs`.
@Suite struct SpecCoverageTests {
    func options() throws -> StubServer.Options {
        let folder = try TempStubs(["openapi.yaml": SpecCoverageStubs.spec])
        var options = StubServer.Options()
        options.contract = try APIContract.load(spec: folder.url.appendingPathComponent("openapi.yaml"))
        return options
    }

    @Test func theCommandShowsOperationsInTheTableJUnitAndCTRFAndFailUnderCountsThem() async throws {
        let report = try await withServer(try TempStubs(SpecCoverageStubs.stubs).url, options: try options()) { server in
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
}

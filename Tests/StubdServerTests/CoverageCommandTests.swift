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

/// `stubd coverage`, `stubd coverage merge` and `serve --coverage-out`, run as a user would.
/// Merging report files, which starts no server: CoverageMergeCommandTests.
@Suite struct CoverageCommandTests {
    /// SIGTERM (what `docker compose stop` sends) writes the report, with what the last request counted.
    @Test func serveWritesTheReportWhenStoppedBySIGTERM() async throws {
        let stubs = try TempStubs(coverageStubs)
        let out = stubs.url.deletingLastPathComponent().appendingPathComponent("coverage-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let serve = try ServeProcess(["--stubs", stubs.url.path, "--coverage-out", out.path])
        #expect(try await get(serve.baseURL, "/flaky").status == 503)
        #expect(try await get(serve.baseURL, "/slow").status == 200)
        kill(serve.process.processIdentifier, SIGTERM)
        serve.process.waitUntilExit()
        #expect(serve.process.terminationStatus == 0, "\(serve.log)")
        let report = try JSONDecoder().decode(CoverageReport.self, from: Data(contentsOf: out))
        #expect(Set(report.routes.flatMap { r in r.items.filter(\.isCovered).map { "\(r.route): \($0.id)" } })
            == ["flaky: answer 1", "slow: answer 1"])
        #expect(serve.log.contains("coverage written to \(out.path): 2 of 13 items (15.3%)"), "\(serve.log)")
    }

    @Test func serveRefusesACoverageFileItCouldNotWrite() throws {
        let stubs = try TempStubs(coverageStubs)
        let r = try run(stubdBinary.path, ["serve", "--stubs", stubs.url.path, "--port", "0", "--coverage-out", "/nonexistent-dir/c.json"])
        #expect(r.status != 0)
        #expect(r.error.contains("--coverage-out /nonexistent-dir/c.json: the folder /nonexistent-dir does not exist; create it first"), "\(r.error)")
    }

    /// The table lists what is missing first, with how to reach it; --fail-under exits 1 below the bar.
    @Test func theTableShowsTheUncoveredFirstAndFailUnderFails() async throws {
        try await withServer(try TempStubs(coverageStubs).url) { server in
            _ = try await get(server.baseURL, "/plain.json")
            let r = try run(stubdBinary.path, ["coverage", "--url", server.baseURL.absoluteString, "--fail-under", "50"])
            #expect(r.status == 1)
            #expect(r.error.contains("7.6% of items covered (1 of 13), under --fail-under 50"), "\(r.error)")
            let lines = r.output.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("   ROUTE") == true, "\(r.output)")
            #expect(lines.dropFirst().first?.hasPrefix("-") == true)
            #expect(lines.contains { $0.hasPrefix("+  GET /plain.json") }, "\(r.output)")
            #expect(!lines.contains { $0.hasSuffix(" ") }, "no padding after a covered row's last cell")
            #expect(r.output.contains("1 of 13 items covered (7.6%), 1 of 9 routes hit"))
            #expect(r.output.contains("send 3 requests within a minute"))
            #expect(try run(stubdBinary.path, ["coverage", "--url", server.baseURL.absoluteString, "--fail-under", "7"]).status == 0)
        }
    }

    /// The issue's bar: merging two shards' reports equals the report of one run doing both shards'
    /// requests (each shard in a session of its own, as on a server of its own).
    @Test func mergedShardsEqualOneRunOfBoth() async throws {
        let stubs = try TempStubs(coverageStubs)
        func shardA(_ base: URL, _ session: String) async throws {
            for path in ["/flaky", "/limited", "/limited", "/limited"] {
                _ = try await get(base, path, headers: ["X-Stubd-Session": session])
            }
        }
        func shardB(_ base: URL, _ session: String) async throws {
            for path in ["/flaky", "/plain.json"] { _ = try await get(base, path, headers: ["X-Stubd-Session": session]) }
            _ = try? await get(base, "/drop", headers: ["X-Stubd-Session": session])
        }
        let a = try await withServer(stubs.url) { try await shardA($0.baseURL, "x"); return try await $0.coverage() }
        let b = try await withServer(stubs.url) { try await shardB($0.baseURL, "x"); return try await $0.coverage() }
        let both = try await withServer(stubs.url) { server in
            try await shardA(server.baseURL, "a")
            try await shardB(server.baseURL, "b")
            return try await server.coverage()
        }
        let files = try [a, b].map { report -> URL in
            let url = stubs.url.deletingLastPathComponent().appendingPathComponent("shard-\(UUID().uuidString).json")
            try JSONEncoder().encode(report).write(to: url)
            return url
        }
        defer { for f in files { try? FileManager.default.removeItem(at: f) } }
        let r = try run(stubdBinary.path, ["coverage", "merge"] + files.map(\.path))
        #expect(r.status == 0, "\(r.error)")
        let merged = try JSONDecoder().decode(CoverageReport.self, from: Data(r.output.utf8))
        #expect(merged == both)
        #expect(merged.summary.covered == 6)
        // And a saved report reads back as the same table a running server prints.
        let table = try run(stubdBinary.path, ["coverage", "--from", files[0].path])
        #expect(table.status == 0)
        #expect(table.output.contains("quota `tight`"), "\(table.output)")
    }

    /// A shard written by hand or by another tool: one route, one answer, `hits` as given (raw JSON text).
    static func shard(hits: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shard-\(UUID().uuidString).json")
        try Data("""
            {"summary": {"items": 1, "covered": 1, "percent": 100, "routes": 1, "routesHit": 1}, "behaviours": [],
             "routes": [{"route": "GET /a", "signature": "GET /a", "source": "a.json", "hits": \(hits),
               "items": [{"kind": "answer", "id": "answer 1", "title": "answer 1 (200)", "hits": \(hits), "hint": "send GET /a"}]}]}
            """.utf8).write(to: url)
        return url
    }

    /// JUnit: one testcase per answer or quota state, in a suite per route; uncovered ones fail (or are skipped).
    @Test func junitHasATestcasePerItemAndFailsTheUncovered() async throws {
        let report = try await withServer(try TempStubs(coverageStubs).url) { server in
            _ = try await get(server.baseURL, "/flaky")
            return try await server.coverage()
        }
        let file = try save(report)
        defer { try? FileManager.default.removeItem(at: file) }
        for (mode, element) in [("failure", "failure"), ("skipped", "skipped")] {
            let r = try run(stubdBinary.path, ["coverage", "--from", file.path, "--format", "junit", "--uncovered", mode])
            #expect(r.status == 0, "\(r.error)")
            let xml = try XMLDocument(data: Data(r.output.utf8))
            let root = try #require(xml.rootElement())
            #expect(root.name == "testsuites")
            #expect(root.attribute(forName: "tests")?.stringValue == "13")
            #expect(root.attribute(forName: mode == "failure" ? "failures" : "skipped")?.stringValue == "12")
            let suites = root.elements(forName: "testsuite")
            #expect(suites.count == 9)
            let cases = suites.flatMap { $0.elements(forName: "testcase") }
            #expect(cases.count == 13)
            #expect(cases.allSatisfy { $0.attribute(forName: "name") != nil && $0.attribute(forName: "classname") != nil })
            #expect(cases.filter { !$0.elements(forName: element).isEmpty }.count == 12)
            let flaky = cases.filter { $0.attribute(forName: "classname")?.stringValue == "flaky" }
            #expect(flaky.map { $0.elements(forName: element).isEmpty } == [true, false])
            // Each suite's counts agree with its testcases, as schema-checking CI readers demand.
            for suite in suites {
                let own = suite.elements(forName: "testcase")
                #expect(suite.attribute(forName: "tests")?.stringValue == String(own.count))
            }
        }
    }

    /// CTRF: the document holds to the CTRF schema's rules (restated below from ctrf.io's
    /// schema/ctrf.schema.json: required fields, the status enum, which fields each object may have).
    @Test func ctrfFollowsTheSchema() async throws {
        let report = try await withServer(try TempStubs(coverageStubs).url) { server in
            _ = try await get(server.baseURL, "/plain.json")
            return try await server.coverage()
        }
        let file = try save(report)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try run(stubdBinary.path, ["coverage", "--from", file.path, "--format", "ctrf"])
        #expect(r.status == 0, "\(r.error)")
        let document = try JSONParser.parse(Data(r.output.utf8))
        let schema = try JSONSchema(JSONParser.parse(Data(Self.ctrfRules.utf8)))
        #expect(schema.validate(document).isEmpty, "\(schema.validate(document))")
        guard case .object(let top) = document, case .object(let results)? = top["results"],
              case .object(let summary)? = results["summary"] else { Issue.record("no results.summary"); return }
        #expect(summary["tests"] == .number(13))
        #expect(summary["passed"] == .number(1))
        #expect(summary["failed"] == .number(12))
    }

    private func save(_ report: CoverageReport) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString).json")
        try JSONEncoder().encode(report).write(to: url)
        return url
    }

    static let ctrfRules = #"""
    {"type": "object", "required": ["results", "reportFormat", "specVersion"], "additionalProperties": false,
     "properties": {
       "reportId": {"type": "string"}, "timestamp": {"type": "string"}, "extra": {"type": "object"},
       "insights": {"type": "object"}, "baseline": {"type": "object"},
       "reportFormat": {"const": "CTRF"},
       "specVersion": {"type": "string", "pattern": "^[0-9]+\\.[0-9]+\\.[0-9]+$"},
       "generatedBy": {"type": "string"},
       "results": {"type": "object", "required": ["tool", "summary", "tests"], "additionalProperties": false, "properties": {
         "environment": {"type": "object"}, "extra": {"type": "object"},
         "tool": {"type": "object", "required": ["name"], "additionalProperties": false, "properties": {
           "name": {"type": "string", "minLength": 1}, "version": {"type": "string"}, "extra": {"type": "object"}}},
         "summary": {"type": "object", "additionalProperties": false,
           "required": ["tests", "passed", "failed", "skipped", "pending", "other", "start", "stop"],
           "properties": {"tests": {"type": "integer"}, "passed": {"type": "integer"}, "failed": {"type": "integer"},
             "skipped": {"type": "integer"}, "pending": {"type": "integer"}, "other": {"type": "integer"},
             "flaky": {"type": "integer"}, "suites": {"type": "integer"}, "start": {"type": "integer"},
             "stop": {"type": "integer"}, "duration": {"type": "integer"}, "extra": {"type": "object"}}},
         "tests": {"type": "array", "items": {"type": "object", "required": ["name", "status", "duration"],
           "additionalProperties": false, "properties": {
           "name": {"type": "string", "minLength": 1},
           "status": {"enum": ["passed", "failed", "skipped", "pending", "other"]},
           "duration": {"type": "integer"}, "message": {"type": "string"}, "filePath": {"type": "string"},
           "tags": {"type": "array", "items": {"type": "string"}}, "extra": {"type": "object"}}}}}}}}
    """#
}

import Foundation
import StubdTestSupport
import Testing

/// `stubd openapi import`, run as a user would: the folder it writes passes `stubd check`, a
/// `stubd serve` of it answers every operation, Prefer selects, and every answer it wrote keeps to
/// the spec under Python's openapi-core (an implementation independent of stubd's validator).
/// What the import writes and refuses, with no server: OpenAPIImportFolderTests.
@Suite struct OpenAPIImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI")
    static let specs = ["weather-3.0.yaml", "catalog-3.1.json"]

    static func importInto(_ spec: URL, _ dir: URL, _ extra: [String] = []) throws -> (status: Int32, output: String, error: String) {
        try run(stubdBinary.path, ["openapi", "import", spec.path, "--stubs", dir.path] + extra)
    }

    static func freshFolder() throws -> URL {
        try TempStubs([:]).url.appendingPathComponent("Stubs")
    }

    /// Every file under `dir` (dot-files included), path → bytes.
    static func contents(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in walker where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            out[String(url.path.dropFirst(dir.path.count + 1))] = try Data(contentsOf: url)
        }
        return out
    }

    @Test(arguments: specs)
    func everyAnswerTheImportWritesKeepsToTheSpec(_ name: String) throws {
        try requirePython(modules: "openapi_core", "yaml")
        let spec = Self.fixtures.appendingPathComponent(name)
        let dir = try Self.freshFolder()
        let imported = try Self.importInto(spec, dir)
        #expect(imported.status == 0, "\(imported.error)")
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path])
        #expect(check.status == 0, "\(check.error)")

        let serve = try ServeProcess(["--stubs", dir.path])
        let verdict = try run(testPython, [RealWorldCorpusTests.corpus.appendingPathComponent("validate_corpus.py").path,
                                                  spec.path, dir.path, serve.baseURL.absoluteString])
        #expect(verdict.status == 0, "\(verdict.output)\(verdict.error)")
        #expect(verdict.output.contains(" 0 failed"), "\(verdict.output)")
        // Every route is one answer the import wrote; all of them were asked for.
        let routes = try String(contentsOf: dir.appendingPathComponent("stubd.yml"), encoding: .utf8)
            .components(separatedBy: "\n  - name:").count - 1
        #expect(verdict.output.contains("\(routes) answers, 0 failed"), "\(verdict.output)")
    }

    @Test func preferSelectsAStatusAnExampleOrBoth() async throws {
        let dir = try Self.freshFolder()
        let imported = try Self.importInto(Self.fixtures.appendingPathComponent("weather-3.0.yaml"), dir)
        #expect(imported.status == 0, "\(imported.error)")
        // The example that breaks its own schema is named, and not served.
        #expect(imported.error.contains("example 'broken' breaks the spec's own schema"), "\(imported.error)")
        let serve = try ServeProcess(["--stubs", dir.path])

        let plain = try await get(serve.baseURL, "/weather/anywhere")
        #expect(plain.status == 200)
        #expect(plain.json["city"] as? String == "Leeds", "the first example by name (rainy): \(plain.text)")
        #expect(plain.header("X-RateLimit-Limit") == "60")

        let sunny = try await get(serve.baseURL, "/weather/anywhere", headers: ["Prefer": "example=sunny"])
        #expect(sunny.status == 200)
        #expect(sunny.json["city"] as? String == "London")

        let limited = try await get(serve.baseURL, "/weather/anywhere", headers: ["Prefer": "code=429"])
        #expect(limited.status == 429)
        #expect(limited.header("Content-Type") == "application/problem+json")
        #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(limited.header("X-RateLimit-Remaining") == "0")
        #expect(limited.json["status"] as? Int == 429)

        let both = try await get(serve.baseURL, "/weather/anywhere", headers: ["Prefer": "code=200, example=sunny"])
        #expect(both.json["city"] as? String == "London")

        let missing = try await get(serve.baseURL, "/weather/anywhere", headers: ["Prefer": "code=404"])
        #expect(missing.status == 404)
        #expect(missing.json["title"] is String, "a body sampled from Problem: \(missing.text)")

        // The recursive Category: a bounded tree, sampled.
        let category = try await get(serve.baseURL, "/categories/7")
        #expect(category.status == 200)
        #expect(category.json["children"] is [Any], "\(category.text)")

        let deleted = try await http(URL(string: serve.baseURL.absoluteString + "/reports/abc")!, method: "DELETE")
        #expect(deleted.status == 204)
        let status = try await get(serve.baseURL, "/status")
        #expect(status.text.hasPrefix("up "), "\(status.text)")
    }
}

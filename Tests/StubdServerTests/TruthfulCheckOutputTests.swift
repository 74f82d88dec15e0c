import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// What `stubd check` and an import say must be what it is (issue 38, item 17): a `.json` file holds
/// JSON, an imported folder passes the check it will be held to, a problem is listed once. No server
/// started; split from TruthfulOutputTests, which keeps the recorder and `serve --coverage-out`.
@Suite struct TruthfulCheckOutputTests {
    /// Before: the parser turned the byte into U+FFFD and `check` passed the file.
    @Test func aJSONFileThatIsNotUTF8IsAProblemAtItsByte() throws {
        let stubs = try TempStubs(["weather.json": "{}"])
        try TruthfulOutputTests.latin1JSON.write(to: stubs.url.appendingPathComponent("weather.json"))
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("weather.json:1:12: invalid JSON: byte 0xFC is not UTF-8; JSON text must be UTF-8"), "\(r.error)")
        for cut in [Data([0xC3]), Data([0xE2, 0x82]), Data([0xED, 0xA0, 0x80]), Data([0xC0, 0xAF])] {
            try (Data(#"{"a": ""#.utf8) + cut + Data(#""}"#.utf8)).write(to: stubs.url.appendingPathComponent("weather.json"))
            #expect(try run(stubdBinary.path, ["check", "--stubs", stubs.url.path]).status == 1, "\(Array(cut))")
        }
        try Data(#"{"city": "Zürich", "sky": "☀️"}"#.utf8).write(to: stubs.url.appendingPathComponent("weather.json"))
        #expect(try run(stubdBinary.path, ["check", "--stubs", stubs.url.path]).status == 0)
    }

    /// Before: import wrote `__files/get_a/200.json` with a warning, and `check --spec` refused the
    /// folder it had just written, listing each problem twice (the plain route and `Prefer: code=200` share the file).
    @Test func anImportedFolderPassesItsOwnCheck() throws {
        let imported = try ImportedSpec(TruthfulOutputTests.hardSpec)
        let (specFile, stubs) = (imported.spec, imported.stubs)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.contains("GET /a 200: no sampled body satisfies the schema, so this answer is left out (write an example in the spec): /d: expected at least 2 properties"),
                "\(imported.error)")
        #expect(!FileManager.default.fileExists(atPath: stubs.appendingPathComponent("__files/get_a/200.json").path))
        let check = try run(stubdBinary.path, ["check", "--stubs", stubs.path, "--spec", specFile.path])
        #expect(check.status == 0, "\(check.error)")
    }

    /// Two routes answering with one body file that breaks the spec: the problem is listed once.
    @Test func aProblemInABodyFileSharedByTwoRoutesIsListedOnce() throws {
        let spec = try TempStubs(["spec.yaml": TruthfulOutputTests.hardSpec])
        let stubs = try TempStubs([
            "stubd.yml": """
                routes:
                  - { name: plain, request: { method: GET, path: /a }, response: { file: body.json } }
                  - { name: prefer, request: { method: GET, path: /a, headers: { Prefer: code=200 } }, response: { file: body.json } }
                """,
            "body.json": #"{"d": {"k": "x"}, "y": "abcd"}"#,
        ])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("spec.yaml").path])
        #expect(r.status == 1)
        // Three problems in the file (/d, and /y against each half of its allOf), each once.
        let lines = r.error.split(separator: "\n").filter { $0.contains("body.json:") }
        #expect(lines.count == 3, "\(r.error)")
        #expect(Set(lines).count == lines.count, "\(r.error)")
        #expect(r.error.contains("3 problems"), "\(r.error)")
    }
}

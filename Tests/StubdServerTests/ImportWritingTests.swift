import Foundation
import StubdTestSupport
import Testing

/// How `stubd openapi import` writes a folder and speaks while it does: one sync for the whole
/// import, warnings said once, and messages in plain text.
@Suite struct ImportWritingTests {
    static let weather = OpenAPIImportTests.fixtures.appendingPathComponent("weather-3.0.yaml")

    /// Before: every file was written with `.atomic`, which fsyncs it (3,182 fsyncs, 7 s of a 16 s
    /// import of a large spec). Counted with strace: at most one sync call for the whole import.
    @Test func anImportSyncsOnceNotOncePerFile() throws {
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else { throw MissingTool(strace) }
        let dir = try OpenAPIImportTests.freshFolder()
        let log = try TempStubs([:]).url.appendingPathComponent("syscalls.txt")
        let r = try run(strace, ["-f", "-qq", "-o", log.path, "-e", "trace=fsync,fdatasync,syncfs,sync,msync",
                                 stubdBinary.path, "openapi", "import", Self.weather.path, "--stubs", dir.path])
        #expect(r.status == 0, "\(r.error)")
        let written = Int(r.output.components(separatedBy: " files written").first?.split(separator: " ").last ?? "") ?? 0
        #expect(written >= 5, "\(r.output)")
        let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("sync") && !$0.contains("resumed") }
        #expect(calls.count <= 1, "\(calls.count) sync calls for \(written) files: \(calls.prefix(5))")
        // What was written is whole, and no temporary file is left behind.
        #expect(try run(stubdBinary.path, ["check", "--stubs", dir.path]).status == 0)
        let leftovers = try OpenAPIImportTests.contents(dir).keys.filter { $0.contains(".stubd-import-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// Before: a re-import printed every warning again in full, with no line saying how many there were.
    @Test func aReimportSaysOnlyNewWarningsInFullAndCountsTheRest() throws {
        let dir = try OpenAPIImportTests.freshFolder()
        let first = try OpenAPIImportTests.importInto(Self.weather, dir)
        #expect(first.status == 0, "\(first.error)")
        let warnings = first.error.components(separatedBy: "warning: ").count - 1
        #expect(warnings >= 1, "\(first.error)")
        #expect(first.output.contains("; \(warnings) warning\(warnings == 1 ? "" : "s") (above)"), "\(first.output)")

        let again = try OpenAPIImportTests.importInto(Self.weather, dir)
        #expect(again.status == 0, "\(again.error)")
        #expect(!again.error.contains("warning: "), "said again in full: \(again.error)")
        #expect(again.output.contains("; \(warnings) warning\(warnings == 1 ? "" : "s") (all as at the last import: --verbose prints them again)"),
                "\(again.output)")

        let verbose = try OpenAPIImportTests.importInto(Self.weather, dir, ["--verbose"])
        #expect(verbose.error.components(separatedBy: "warning: ").count - 1 == warnings, "\(verbose.error)")
    }

    /// OpenAPIKit writes Markdown ("`responses` value for the **GET** endpoint under `/x`"). Main
    /// already made it plain text when lenient loading landed (issue 39 item 9); this holds it for
    /// import and check alike, one line each.
    @Test func aSpecOpenAPIKitRefusesIsNamedInOnePlainLine() throws {
        let specs = try TempStubs(["bad.yaml": """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /x:
                get:
                  responses: 5
            """])
        let spec = specs.url.appendingPathComponent("bad.yaml")
        let imported = try OpenAPIImportTests.importInto(spec, try OpenAPIImportTests.freshFolder())
        let checked = try run(stubdBinary.path, ["check", "--stubs", specs.url.path, "--spec", spec.path])
        for r in [imported, checked] {
            #expect(r.status == 1)
            #expect(r.error.contains("for the GET endpoint under `/x` to be parsable"), "\(r.error)")
            #expect(!r.error.contains("**"), "\(r.error)")
            #expect(!r.error.contains(".."), "\(r.error)")
            let problem = r.error.split(separator: "\n").filter { $0.contains("not a valid OpenAPI") }
            #expect(problem.count == 1 && problem[0].contains("parsable as Dictionary"), "one line, with the reason: \(r.error)")
        }
    }
}

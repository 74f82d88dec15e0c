import Foundation
import StubdTestSupport
import Testing

/// `openapi import` with and without `--strict-spec`: what it reads leniently or leaves out is a
/// warning at its line, or a refusal when asked. No server started; split from StrictSpecTests,
/// which keeps `check` and `serve` refusing.
@Suite struct StrictSpecImportTests {
    @Test func importWritesTheRestWithAWarningEachOrRefusesWhenStrict() throws {
        let lenient = try ImportedSpec(StrictSpecTests.lenient)
        #expect(lenient.status == 0, "\(lenient.error)")
        #expect(lenient.error.contains("spec.yaml:10:") && lenient.error.contains("warning: "), "\(lenient.error)")

        let strict = try ImportedSpec(StrictSpecTests.lenient, ["--strict-spec"])
        #expect(strict.status == 1, "\(strict.output)")
        #expect(strict.error.contains("spec.yaml:8:"), "the missing description, at its line: \(strict.error)")
        #expect(strict.error.contains("--strict-spec refuses \(strict.spec.path): 2 parts above would be read leniently or left out"), "\(strict.error)")
        #expect(!FileManager.default.fileExists(atPath: strict.stubs.path), "nothing written")
    }

    /// A path stubd cannot match (two parameters with nothing between them) left out the whole spec:
    /// import, check and serve refused it. Now its operations are left out with a warning at its line.
    @Test func aPathStubdCannotMatchIsLeftOutNotTheSpec() throws {
        let spec = """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /ok:
                get:
                  responses:
                    '200': {description: ok, content: {application/json: {example: {a: 1}}}}
              /odd/{a}{b}:
                get:
                  responses:
                    '200': {description: ok, content: {application/json: {example: {a: 1}}}}
            """
        let imported = try ImportedSpec(spec)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.contains("path '/odd/{a}{b}' left out"), "\(imported.error)")
        let check = try run(stubdBinary.path, ["check", "--stubs", imported.stubs.path, "--spec", imported.spec.path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.error.contains("spec.yaml:9:") && check.error.contains("the path '/odd/{a}{b}' is left out"), "\(check.error)")
        let strict = try run(stubdBinary.path, ["check", "--stubs", imported.stubs.path, "--spec", imported.spec.path, "--strict-spec"])
        #expect(strict.status == 1 && strict.error.contains("--strict-spec refuses"), "\(strict.error)")
    }
}

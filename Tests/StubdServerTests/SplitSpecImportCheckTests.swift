import Foundation
import StubdTestSupport
import Testing

/// A spec split across files, read by `openapi import` and `check --spec`, and a `$ref` naming
/// nothing named at its own file and line. No server started; split from SplitSpecTests, which
/// serves the split spec's answers.
@Suite struct SplitSpecImportCheckTests {
    /// Before: import warned "the schema cannot be read, so bodies are not checked" and `check --spec`
    /// refused the spec ("Found neither a $ref nor a PathItem … `responses` key … is missing").
    @Test func aSplitSpecImportsAndTheImportPassesCheckAgainstIt() throws {
        let spec = try TempStubs(SplitSpecTests.files).url.appendingPathComponent("openapi.yaml")
        let dir = try TempStubs([:]).url.appendingPathComponent("Stubs")
        let imported = try run(stubdBinary.path, ["openapi", "import", spec.path, "--stubs", dir.path])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.isEmpty, "no warnings: \(imported.error)")
        #expect(imported.output.contains("/Stubs: 8 routes, "), "\(imported.output)")
        let manifest = try String(contentsOf: dir.appendingPathComponent("stubd.yml"), encoding: .utf8)
        for route in ["method: GET, path: \"/things\"", "method: POST, path: \"/things\"", "method: GET, path: \"/pets/{id}\"",
                      "method: GET, path: \"/animals\""] {
            #expect(manifest.contains(route), "\(route) in \(manifest)")
        }
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path, "--spec", spec.path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.contains("every answer keeps to openapi.yaml (OpenAPI 3.0.3, 4 operations)"), "\(check.output)")
    }

    /// Before: "Found neither a $ref nor a PathItem in Document.paths[…]", naming a different path on
    /// each run when two were wrong. Now each `$ref` that names nothing is named where it is written.
    @Test func aReferenceThatNamesNothingIsNamedAtItsFileAndLineTheSameOnEveryRun() throws {
        var files = SplitSpecTests.files
        files["paths/things.yaml"] = files["paths/things.yaml"]!.replacingOccurrences(of: "responses.yaml#/ThingList", with: "responses.yaml#/Nope")
        files["openapi.yaml"] = files["openapi.yaml"]!.replacingOccurrences(of: "$ref: paths/pet-get.yaml", with: "$ref: paths/pet-get.yaml#/missing")
        let spec = try TempStubs(files).url.appendingPathComponent("openapi.yaml")
        var outputs: Set<String> = []
        for r in try SpecInputHardeningTests.everyReader(of: spec) + SpecInputHardeningTests.everyReader(of: spec) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.command == "openapi import" || r.error.contains("2 problems"), "\(r.command): \(r.error)")
            #expect(r.error.contains("openapi.yaml:8:7: #/paths/~1pets~1{id}/get: $ref names nothing: there is no paths/pet-get.yaml#/missing"),
                    "\(r.command): \(r.error)")
            #expect(r.error.contains("paths/things.yaml:6:7: #/get/responses/200: $ref names nothing: there is no components/responses.yaml#/Nope"),
                    "\(r.command): \(r.error)")
            outputs.insert(r.command + r.error.replacingOccurrences(of: spec.deletingLastPathComponent().path, with: ""))
        }
        #expect(outputs.count == 3, "one message per command on both runs: \(outputs)")
    }
}

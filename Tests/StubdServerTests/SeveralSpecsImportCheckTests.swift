import Foundation
import StubdTestSupport
import Testing

/// A folder holding several specs' imports: `check` holds each route to its own spec, and
/// `--replace` takes the first spec's routes and files away. No server started; split from
/// SeveralSpecsImportTests, which serves both.
@Suite struct SeveralSpecsImportCheckTests {
    /// A route held to the wrong spec's operation would be refused: each is checked against the spec that has it.
    @Test func eachRouteIsCheckedAgainstTheSpecThatHasItsOperation() throws {
        let folder = try TempStubs(SeveralSpecsImportTests.specs)
        let stubs = try TempStubs(["v2/Services.json": #"{"verify": 1}"#, "v1/Services.json": #"{"messaging": "ok"}"#])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path,
                                           "--spec", folder.url.appendingPathComponent("verify.yaml").path,
                                           "--spec", folder.url.appendingPathComponent("messaging.yaml").path])
        #expect(r.status == 1)
        #expect(r.error.contains("1 problem"), "\(r.error)")
        #expect(r.error.contains("v2/Services.json:1:12: GET /v2/Services 200: /verify: expected a string"), "\(r.error)")
    }

    @Test func replaceRemovesTheFirstSpecsRoutesAndFiles() throws {
        let folder = try TempStubs(SeveralSpecsImportTests.specs)
        let dir = try OpenAPIImportTests.freshFolder()
        #expect(try OpenAPIImportTests.importInto(folder.url.appendingPathComponent("verify.yaml"), dir).status == 0)
        let replaced = try OpenAPIImportTests.importInto(folder.url.appendingPathComponent("other.yaml"), dir, ["--replace"])
        #expect(replaced.status == 0, "\(replaced.error)")
        #expect(replaced.output.contains("1 removed (verify.yaml)"), "\(replaced.output)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("__files/ListService/200.json").path))
        let manifest = try String(contentsOf: dir.appendingPathComponent("stubd.yml"), encoding: .utf8)
        #expect(manifest.contains("/v3/Things") && !manifest.contains("/v2/Services"), "\(manifest)")
        #expect(try run(stubdBinary.path, ["check", "--stubs", dir.path]).status == 0)
    }
}

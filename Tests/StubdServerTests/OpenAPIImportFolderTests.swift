import Foundation
import StubdTestSupport
import Testing

/// `stubd openapi import`, run as a user would: the folder it writes (the same bytes again, an
/// edited file kept, a hand-written manifest left alone), a spec it cannot read, and schemas whose
/// bounds would make sampling slow or huge. No server started; split from OpenAPIImportTests, which
/// serves what the import wrote.
@Suite struct OpenAPIImportFolderTests {
    /// A spec whose one operation answers `schema` (YAML flow text).
    static func spec(schema: String) -> String {
        OpenAPISpec.document(OpenAPISpec.get("/grid", OpenAPISpec.json(schema: schema)))
    }

    /// `stubd openapi import` of `spec(schema:)` into a fresh folder, killed after a minute.
    static func importGrid(schema: String) throws -> (r: (status: Int32, output: String, error: String, seconds: Double), dir: URL) {
        let folder = try TempStubs(["spec.yaml": spec(schema: schema)])
        let dir = try OpenAPIImportTests.freshFolder()
        let r = try run(stubdBinary.path, ["openapi", "import", folder.url.appendingPathComponent("spec.yaml").path, "--stubs", dir.path],
                        killedAfter: 60)
        return (r, dir)
    }

    @Test func anUnchangedReimportWritesTheSameBytesAndAnyFolderGetsTheSame() throws {
        let spec = OpenAPIImportTests.fixtures.appendingPathComponent("catalog-3.1.json")
        let a = try OpenAPIImportTests.freshFolder(), b = try OpenAPIImportTests.freshFolder()
        #expect(try OpenAPIImportTests.importInto(spec, a).status == 0)
        let first = try OpenAPIImportTests.contents(a)
        let again = try OpenAPIImportTests.importInto(spec, a)
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output.contains("0 files written"), "\(again.output)")
        #expect(try OpenAPIImportTests.contents(a) == first)
        // Seeded by the route, not the run or the folder.
        #expect(try OpenAPIImportTests.importInto(spec, b).status == 0)
        #expect(try OpenAPIImportTests.contents(b) == first)
    }

    @Test func reimportStopsAtAnEditedFileAndRewritesTheOthers() throws {
        let specDir = try TempStubs([:]).url
        let spec = specDir.appendingPathComponent("weather.yaml")
        let original = try String(contentsOf: OpenAPIImportTests.fixtures.appendingPathComponent("weather-3.0.yaml"), encoding: .utf8)
        try original.write(to: spec, atomically: true, encoding: .utf8)
        let dir = try OpenAPIImportTests.freshFolder()
        #expect(try OpenAPIImportTests.importInto(spec, dir).status == 0)

        // The spec changes; nothing was edited: the changed answer is rewritten.
        try original.replacingOccurrences(of: "city: Leeds", with: "city: York").write(to: spec, atomically: true, encoding: .utf8)
        let changed = try OpenAPIImportTests.importInto(spec, dir)
        #expect(changed.status == 0, "\(changed.error)")
        let rainy = dir.appendingPathComponent("__files/getWeather/200.rainy.json")
        #expect(try String(contentsOf: rainy, encoding: .utf8).contains("York"))

        // The user edits an answer, then the spec changes again: import stops and names the file.
        try #"{"city":"Mine","temp":1,"observed":"2026-01-01T00:00:00Z"}"#.write(to: rainy, atomically: true, encoding: .utf8)
        try original.write(to: spec, atomically: true, encoding: .utf8)
        let before = try OpenAPIImportTests.contents(dir)
        let refused = try OpenAPIImportTests.importInto(spec, dir)
        #expect(refused.status == 1)
        #expect(refused.error.contains("__files/getWeather/200.rainy.json: changed since it was imported"), "\(refused.error)")
        #expect(refused.error.contains("--force"), "\(refused.error)")
        #expect(try OpenAPIImportTests.contents(dir) == before, "nothing written")

        let forced = try OpenAPIImportTests.importInto(spec, dir, ["--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try String(contentsOf: rainy, encoding: .utf8).contains("Leeds"))
    }

    @Test func aHandWrittenManifestIsNotOverwritten() throws {
        let stubs = try TempStubs(["stubd.yml": "routes:\n  - { request: { path: /mine }, response: { status: 200 } }\n"])
        let r = try OpenAPIImportTests.importInto(OpenAPIImportTests.fixtures.appendingPathComponent("weather-3.0.yaml"), stubs.url)
        #expect(r.status == 1)
        #expect(r.error.contains("stubd.yml: changed since it was imported (or not written by an import)"), "\(r.error)")
        #expect(try String(contentsOf: stubs.url.appendingPathComponent("stubd.yml"), encoding: .utf8).contains("/mine"))
    }

    @Test func aSpecStubdCannotReadIsNamed() throws {
        // Swagger 2.0 and a missing `info` are read now (SwaggerTwoTests, LenientSpecTests).
        let specs = try TempStubs([
            "swagger.yaml": "swagger: \"1.2\"\ninfo: { title: x, version: \"1\" }\npaths: {}\n",
            "noparams.json": #"{"openapi": "3.1.0", "paths": {"/a": {"get": {"parameters": [{"name": "q"}], "responses": {}}}}}"#,
            "broken.json": "{\n  \"openapi\": \"3.1.0\",\n}\n",
        ])
        let dir = try OpenAPIImportTests.freshFolder()
        let swagger = try OpenAPIImportTests.importInto(specs.url.appendingPathComponent("swagger.yaml"), dir)
        #expect(swagger.status == 1)
        #expect(swagger.error.contains("swagger.yaml:1:10: #/swagger: swagger: \"1.2\" is not a version stubd reads"), "\(swagger.error)")
        let noIn = try OpenAPIImportTests.importInto(specs.url.appendingPathComponent("noparams.json"), dir)
        #expect(noIn.status == 1)
        #expect(noIn.error.contains("not a valid OpenAPI 3.1.0 document"), "\(noIn.error)")
        let broken = try OpenAPIImportTests.importInto(specs.url.appendingPathComponent("broken.json"), dir)
        #expect(broken.status == 1)
        #expect(broken.error.contains("broken.json:3:1: invalid JSON"), "\(broken.error)")
        #expect(!FileManager.default.fileExists(atPath: dir.path))
    }

    /// Before: the padding loop was quadratic (999,999 took ~8 minutes in a release build).
    @Test func aLongMinLengthIsSampledInLinearTime() throws {
        let (r, dir) = try Self.importGrid(schema: "{type: string, minLength: 999999}")
        #expect(r.status == 0, "\(r.seconds) s: \(r.error)")
        #expect(r.seconds < 30, "\(r.seconds) s")
        let body = try Data(contentsOf: dir.appendingPathComponent("__files/get_grid/200.json"))
        #expect(body.count == 999_999 + 3, "a JSON string and a newline")
    }

    /// Before: `minItems: 10000` inside `minItems: 10000` grew to 2.4 GB in 60 s. Now sampling
    /// stops at the size limit and names the schema that asked for it; the rest is imported.
    @Test func nestedBoundsThatMultiplyStopAtTheLimitNamingTheSchema() throws {
        let (r, dir) = try Self.importGrid(schema: "{type: array, minItems: 10000, items: {type: array, minItems: 10000, items: {type: integer}}}")
        // Its one answer left out, the spec has nothing to import: nothing is written (issue 39 item 12).
        #expect(r.status == 1, "\(r.seconds) s: \(r.error)")
        #expect(r.error.contains("no operation with an answer stubd can write"), "\(r.error)")
        #expect(r.seconds < 30, "\(r.seconds) s")
        // Which limit comes first (4 MiB or 2 s) depends on the machine; the schema named does not.
        #expect(r.error.contains("GET /grid 200: left out: the schema at #/paths/~1grid/get/responses/200/content/application~1json/schema/items (minItems 10000) makes the sampled body "),
                "\(r.error)")
        #expect(r.error.contains("grow past 4 MiB, the limit for one sampled body; write an example in the spec")
                || r.error.contains("take more than 2 s, the limit for one sampled body"), "\(r.error)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("__files/get_grid/200.json").path))
    }
}

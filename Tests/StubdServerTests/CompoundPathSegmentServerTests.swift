import Foundation
import StubdTestSupport
import Testing

/// Issue 58 item 4: a spec path with two parameters in one segment (TomTom's and OpenStreetMap's
/// `/tiles/{z}/{x}/{y}.{format}`) through `stubd openapi import`, `check --spec` and `serve --spec`.
/// Before, the import left the path out with a warning ("one parameter per segment"), and the spec
/// could not be served at all.
@Suite struct CompoundPathSegmentServerTests {
    static let spec = OpenAPISpec.document(version: "3.0.3", title: "Tiles", OpenAPISpec.get("/tiles/{z}/{x}/{y}.{format}", operation: """
        parameters:
          - { name: z, in: path, required: true, schema: { type: integer, minimum: 0 } }
          - { name: x, in: path, required: true, schema: { type: integer, minimum: 0 } }
          - { name: y, in: path, required: true, schema: { type: integer, minimum: 0 } }
          - { name: format, in: path, required: true, schema: { type: string, enum: [png, pbf] } }
        """, OpenAPISpec.json(schema: "{type: object, required: [tile], properties: {tile: {type: string}}}", examples: "one: {value: {tile: t}}")))

    @Test func anImportedTilePathIsServedAndItsParametersJudgedByTheSpec() async throws {
        let imported = try ImportedSpec(Self.spec)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(!imported.error.contains("left out"), "\(imported.error)")
        let manifest = try String(contentsOf: imported.stubs.appendingPathComponent("stubd.yml"), encoding: .utf8)
        #expect(manifest.contains("/tiles/{z}/{x}/{y}.{format}"), "\(manifest)")
        let check = try run(stubdBinary.path, ["check", "--stubs", imported.stubs.path, "--spec", imported.spec.path])
        #expect(check.status == 0, "\(check.error)")

        let serve = try ServeProcess(["--stubs", imported.stubs.path, "--spec", imported.spec.path, "--validate", "requests=strict"])
        let tile = try await get(serve.baseURL, "/tiles/1/2/3.png")
        #expect(tile.status == 200, "\(tile.text)")
        #expect(tile.json["tile"] as? String == "t", "\(tile.text)")

        let gif = try await get(serve.baseURL, "/tiles/1/2/3.gif")
        #expect(gif.status == 422, "\(gif.text)")
        #expect(gif.header("Content-Type") == "application/problem+json")
        let errors = (gif.json["validation"] as? [[String: Any]]) ?? []
        #expect(errors.map { "\($0["location"] ?? "") \($0["code"] ?? "")" } == ["path.format enum"], "\(gif.text)")
    }
}

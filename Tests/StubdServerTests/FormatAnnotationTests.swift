import Foundation
import StubdTestSupport
import Testing

/// `format` describes unless asked (`--formats assert`): a vendor's own example is kept when only
/// a string format disagrees with it (Twilio's relative URIs under `format: uri`), said once.
@Suite struct FormatAnnotationTests {
    /// A list answer as Twilio writes it: `format: uri` on relative URIs, a `default` on the page.
    static let spec = OpenAPISpec.document(version: "3.0.1",
        OpenAPISpec.get("/Calls.json", operation: "operationId: ListCall", OpenAPISpec.json(schema: """
            type: object
            properties:
              first_page_uri: {type: string, format: uri}
              next_page_uri: {type: string, format: uri, nullable: true}
              page: {type: integer}
            """, examples: """
            readFull:
              value: {first_page_uri: "/2010-04-01/Calls.json?Page=0", next_page_uri: null, page: 0}
            readEmpty:
              value: {first_page_uri: "/2010-04-01/Calls.json?PageSize=50", next_page_uri: null, page: 0}
            """)),
        OpenAPISpec.get("/Pages.json", operation: "operationId: ListPage", OpenAPISpec.json(schema: """
            type: object
            required: [page, page_size]
            properties:
              page: {type: integer, default: 0}
              page_size: {type: integer, default: 50}
            """)))

    /// Before: both examples were left out ("expected an absolute URI"), one warning each, and the
    /// route answered a generated body; `Prefer: example=readFull` found no route.
    @Test func anExampleBreakingOnlyAStringFormatIsKeptAndSaidOnce() async throws {
        let imported = try ImportedSpec(Self.spec)
        let (spec, dir) = (imported.spec, imported.stubs)
        #expect(imported.status == 0, "\(imported.error)")
        let warnings = imported.error.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(imported.error)")
        #expect(imported.error.contains("2 examples kept though a value breaks its `format` (uri ×2), e.g. GET /Calls.json 200 example 'readEmpty': /first_page_uri"),
                "\(imported.error)")
        #expect(imported.error.contains("--formats assert"), "\(imported.error)")

        #expect(try run(stubdBinary.path, ["check", "--stubs", dir.path, "--spec", spec.path]).status == 0)
        let serve = try ServeProcess(["--stubs", dir.path, "--spec", spec.path])
        let full = try await get(serve.baseURL, "/Calls.json", headers: ["Prefer": "example=readFull"])
        #expect(full.status == 200)
        #expect(full.json["first_page_uri"] as? String == "/2010-04-01/Calls.json?Page=0", "\(full.text)")
        #expect(full.json["next_page_uri"] is NSNull, "the vendor's null, not an invented URI: \(full.text)")

        // Before: `default: 0` came out as an invented number.
        let pages = try await get(serve.baseURL, "/Pages.json")
        #expect(pages.json["page"] as? Int == 0, "\(pages.text)")
        #expect(pages.json["page_size"] as? Int == 50, "\(pages.text)")
    }

    @Test func formatsAssertLeavesThoseExamplesOutAndCheckAndServeHoldToIt() throws {
        let first = try ImportedSpec(Self.spec)
        #expect(first.status == 0, "\(first.error)")
        let (spec, annotated) = (first.spec, first.stubs)
        // The folder kept the relative URIs: asserting formats, check and serve refuse it, naming the rule.
        let check = try run(stubdBinary.path, ["check", "--stubs", annotated.path, "--spec", spec.path, "--formats", "assert"])
        #expect(check.status == 1)
        #expect(check.error.contains("/first_page_uri: expected an absolute URI"), "\(check.error)")
        let serve = try run(stubdBinary.path, ["serve", "--stubs", annotated.path, "--spec", spec.path, "--formats", "assert", "--port", "0"])
        #expect(serve.status == 1)
        #expect(serve.error.contains("expected an absolute URI"), "\(serve.error)")

        let imported = try ImportedSpec(Self.spec, ["--formats", "assert"])
        let asserted = imported.stubs
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.contains("example 'readFull' breaks the spec's own schema, left out: /first_page_uri: expected an absolute URI"),
                "\(imported.error)")
        #expect(!FileManager.default.fileExists(atPath: asserted.appendingPathComponent("__files/ListCall/200.readFull.json").path))
        #expect(try run(stubdBinary.path, ["check", "--stubs", asserted.path, "--spec", spec.path, "--formats", "assert"]).status == 0)
    }
}

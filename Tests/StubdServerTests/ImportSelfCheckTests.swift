import Foundation
import StubdTestSupport
import Testing

/// `stubd openapi import` never reports success for a folder `stubd check` refuses: it checks what
/// it would write with check's own loader first.
@Suite struct ImportSelfCheckTests {
    /// Before: exit 0 and a `stubd.yml` whose `routes:` was empty, which check rejected ("routes must be a list").
    @Test func aSpecWithNoOperationsWritesNothingAndSaysWhy() throws {
        let r = try ImportedSpec("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n")
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("spec.yaml: no operation with an answer stubd can write (the spec has no paths: nothing to answer); nothing written"), "\(r.error)")
        #expect(!FileManager.default.fileExists(atPath: r.stubs.appendingPathComponent("stubd.yml").path))
    }

    /// Twilio's twilio_iam_scim.yaml and twilio_verify_v3.yaml: paths, each `{}`. Before: "the warnings
    /// above say why each was left out", and there were none.
    @Test func aSpecWhosePathsDeclareNoOperationSaysSo() throws {
        let r = try ImportedSpec("openapi: 3.0.1\ninfo: {title: t, version: '1'}\npaths:\n  /scim/v2/Users: {}\n  /scim/v2/ResourceTypes: {}\n")
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("spec.yaml: no operation with an answer stubd can write (its 2 paths declare no operation: nothing to answer); nothing written"), "\(r.error)")
    }

    /// Issue 58 item 5: an XML answer of an object is written as XML (before: left out, "cannot be
    /// sampled", and with every answer XML the import wrote nothing).
    @Test func aSpecWhoseAnswersAreAllXMLObjectsImportsThemAsXML() throws {
        let r = try ImportedSpec(OpenAPISpec.document(version: "3.0.3", OpenAPISpec.get("/feed",
            OpenAPISpec.json(media: "application/xml", schema: "{type: object, properties: {title: {type: string}}}"))))
        #expect(r.status == 0, "\(r.error)")
        let body = try String(contentsOf: r.stubs.appendingPathComponent("__files/get_feed/200.xml"), encoding: .utf8)
        #expect(body.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root>"), "\(body)")
        let manifest = try String(contentsOf: r.stubs.appendingPathComponent("stubd.yml"), encoding: .utf8)
        #expect(manifest.contains(#"headers: { "Content-Type": "application/xml" }, file: "__files/get_feed/200.xml""#), "\(manifest)")
    }

    /// A required header with neither example nor schema: the import leaves the header out, which
    /// `check --spec` refuses. Before: written, exit 0; serve then refused the folder.
    @Test func aFolderCheckWouldRefuseIsNotWritten() throws {
        let r = try ImportedSpec(OpenAPISpec.document(version: "3.0.3", OpenAPISpec.get("/limited", """
            '200':
              description: ok
              headers:
                X-Quota: {required: true, content: {text/plain: {}}}
            """)))
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("would write stubd.yml:"), "\(r.error)")
        #expect(r.error.contains("no X-Quota header, which the spec requires"), "\(r.error)")
        #expect(r.error.contains("nothing written"), "\(r.error)")
        #expect(!FileManager.default.fileExists(atPath: r.stubs.path))
    }
}

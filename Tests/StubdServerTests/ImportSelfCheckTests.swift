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

    @Test func aSpecWhoseAnswersAreAllXMLObjectsWritesNothingAndSaysWhy() throws {
        let r = try ImportedSpec(OpenAPISpec.document(version: "3.0.3", OpenAPISpec.get("/feed",
            OpenAPISpec.json(media: "application/xml", schema: "{type: object, properties: {title: {type: string}}}"))))
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("GET /feed 200: application/xml with a non-string schema cannot be sampled; left out"), "\(r.error)")
        #expect(r.error.contains("no operation with an answer stubd can write (the warnings above say why each was left out); nothing written"), "\(r.error)")
        #expect(!FileManager.default.fileExists(atPath: r.stubs.appendingPathComponent("stubd.yml").path))
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

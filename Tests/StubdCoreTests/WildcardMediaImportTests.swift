import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Parts of real specs that refused a whole operation at import (issue 58 item 4): a `*/*` answer
/// with an object schema, and examples in a type other than JSON (XML, CSV) under an object schema.
@Suite struct WildcardMediaImportTests {
    func imported(_ name: String, _ text: String) throws -> (OpenAPIImporter.Output, APIContract, TempStubs) {
        let folder = try TempStubs([name: text])
        let url = folder.url.appendingPathComponent(name)
        let document = try OpenAPIDocument.load(url)
        return (OpenAPIImporter(spec: document, specName: name).run(), try APIContract.load(spec: url), folder)
    }

    /// Served as what it is, JSON for an object, never `Content-Type: */*`; and `check --spec` takes it.
    @Test func aWildcardAnswerIsServedAsJSONOrText() throws {
        let (output, contract, _) = try imported("any.yaml", """
            openapi: 3.0.3
            info: { title: t, version: "1" }
            paths:
              /any:
                get:
                  responses:
                    "200": { description: ok, content: { "*/*": { schema: { type: object, properties: { ok: { type: boolean } }, required: [ok] } } } }
              /example:
                get:
                  responses:
                    "200": { description: ok, content: { "*/*": { schema: { type: object }, example: { ok: true } } } }
              /text:
                get:
                  responses:
                    "200": { description: ok, content: { "*/*": { schema: { type: string }, example: "plain words" } } }
            """)
        #expect(output.routes > 0 && !output.warnings.contains { $0.contains("left out") }, "\(output.warnings)")
        let manifest = String(decoding: output.files["stubd.yml"] ?? Data(), as: UTF8.self)
        #expect(!manifest.contains("*/*"), "\(manifest)")
        #expect(manifest.contains("application/json") && manifest.contains("text/plain"), "\(manifest)")
        #expect(ImportSelfCheck.problems(of: output.files, against: contract).isEmpty)
    }

    /// Swagger 2.0's `examples` by type: an XML and a CSV example of an object were held to the
    /// object schema as strings and left out, and the operation with them.
    @Test func swagger2ExamplesInOtherTypesImport() throws {
        let (output, contract, _) = try imported("pets.yaml", """
            swagger: "2.0"
            info: { title: t, version: "1" }
            produces: [application/xml, text/csv]
            paths:
              /pets:
                get:
                  responses:
                    "200":
                      description: ok
                      schema: { type: object, properties: { name: { type: string } } }
                      examples:
                        application/xml: "<pet><name>x</name></pet>"
                        text/csv: "name\\nx\\n"
            """)
        #expect(output.routes > 0 && !output.warnings.contains { $0.contains("left out") }, "\(output.warnings)")
        #expect(output.files.values.contains(Data("<pet><name>x</name></pet>".utf8)), "\(output.files.keys.sorted())")
        #expect(ImportSelfCheck.problems(of: output.files, against: contract).isEmpty)
    }
}

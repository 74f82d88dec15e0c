import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// XML where the spec declares it (issue 58 item 5): import writes an XML body beside the JSON one,
/// `check --spec` reads an XML answer and holds it to its schema, and so does request validation.
/// Before: the XML answer was left out of the import, and XML bodies were never held to their schema.
@Suite struct XMLContractTests {
    static let spec = """
        openapi: 3.0.3
        info: { title: t, version: "1" }
        paths:
          /pets/{id}:
            get:
              operationId: getPet
              parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
              responses:
                "200":
                  description: ok
                  content:
                    application/json: { schema: { $ref: "#/components/schemas/Pet" } }
                    application/xml: { schema: { $ref: "#/components/schemas/Pet" } }
          /pets:
            post:
              requestBody:
                required: true
                content:
                  application/xml: { schema: { $ref: "#/components/schemas/Pet" } }
              responses:
                "201": { description: made }
        components:
          schemas:
            Pet:
              type: object
              xml: { name: pet }
              required: [id, name]
              properties:
                id: { type: integer, xml: { attribute: true } }
                name: { type: string, example: Rex }
                tags: { type: array, xml: { wrapped: true }, items: { type: string, xml: { name: tag } } }
        """

    func loaded() throws -> (OpenAPIImporter.Output, APIContract, TempStubs) {
        let folder = try TempStubs(["pets.yaml": Self.spec])
        let url = folder.url.appendingPathComponent("pets.yaml")
        return (OpenAPIImporter(spec: try OpenAPIDocument.load(url), specName: "pets.yaml").run(), try APIContract.load(spec: url), folder)
    }

    func answerProblems(_ xml: String, in contract: APIContract) throws -> [String] {
        let operation = try #require(contract.operations.first { $0.signature.hasPrefix("GET") })
        return AnswerConformance.violations(status: 200, headerNames: [], contentType: "application/xml", body: Data(xml.utf8),
                                            of: operation, in: contract).map(\.message)
    }

    @Test func importWritesTheXMLBodyBesideTheJSONAndCheckTakesIt() throws {
        let (output, contract, _) = try loaded()
        #expect(!output.warnings.contains { $0.contains("left out") }, "\(output.warnings)")
        let xml = String(decoding: try #require(output.files["__files/getPet/200.xml"], "\(output.files.keys.sorted())"), as: UTF8.self)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<pet id="), "\(xml)")
        #expect(xml.contains("<name>Rex</name>"), "\(xml)")
        let manifest = String(decoding: output.files["stubd.yml"] ?? Data(), as: UTF8.self)
        #expect(manifest.contains(#"content: { "application/json": { file: "__files/getPet/200.json" }, "application/xml": { file: "__files/getPet/200.xml" } }"#),
                "\(manifest)")
        #expect(ImportSelfCheck.problems(of: output.files, against: contract).isEmpty)
    }

    @Test func anXMLAnswerIsHeldToItsSchema() throws {
        let (_, contract, _) = try loaded()
        #expect(try answerProblems(#"<pet id="1"><name>Rex</name><tags><tag>a</tag></tags></pet>"#, in: contract).isEmpty)
        let broken = try answerProblems(#"<pet id="one"><tags><tag>a</tag></tags></pet>"#, in: contract)
        #expect(broken.contains { $0.hasPrefix("/id: expected an integer") } && broken.contains { $0.contains("name") }, "\(broken)")
        let malformed = try answerProblems("<pet id=\"1\">\n  <name>Rex</nam>\n</pet>", in: contract)
        #expect(malformed == ["the body is not XML stubd reads (</nam> closes <name> (opened at line 2, column 3); expected </name> at line 2, column 12)"],
                "\(malformed)")
    }

    @Test func anXMLRequestBodyIsHeldToItsSchema() throws {
        let (_, contract, _) = try loaded()
        func problems(_ body: String) -> [String] {
            let request = RequestHead(method: .post, path: "/pets", headers: [.contentType: "application/xml; charset=utf-8"], body: Data(body.utf8))
            return (contract.violations(of: request) ?? []).map { "\($0.location) \($0.code): \($0.message)" }
        }
        #expect(problems(#"<pet id="2"><name>Rex</name></pet>"#).isEmpty)
        let broken = problems(#"<pet id="two"/>"#)
        #expect(broken.contains { $0.hasPrefix("body/id type: expected an integer") } && broken.contains { $0.hasPrefix("body required:") }, "\(broken)")
        #expect(problems("<!DOCTYPE pet><pet/>") == ["body xml: the body is not XML stubd reads: a DOCTYPE is refused: stubd reads no DTD and expands none of its entities (one can make a small body huge, or read a file); send the document without it at line 1, column 1"])
    }
}

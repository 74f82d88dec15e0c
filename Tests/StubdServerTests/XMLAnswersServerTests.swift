import Foundation
import StubdTestSupport
import Testing

/// Issue 58 item 5, through the real CLI and a socket: a spec declaring JSON and XML for one answer
/// is imported, checked and served; `Accept` picks the body, and an XML request body is held to its
/// schema. Before: the XML answer was left out of the import, so `Accept: application/xml` got the
/// JSON body (with `X-Stubd-Accept`), and an XML request body was never checked.
@Suite struct XMLAnswersServerTests {
    static let spec = OpenAPISpec.document(version: "3.0.3", """
        /pets/{id}:
          get:
            operationId: getPet
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            responses:
              '200':
                description: ok
                content:
                  application/json: {schema: {$ref: '#/components/schemas/Pet'}}
                  application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
        """, """
        /pets:
          post:
            operationId: addPet
            requestBody:
              required: true
              content:
                application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
            responses:
              '201': {description: made}
        """, rest: """
        components:
          schemas:
            Pet:
              type: object
              xml: {name: pet}
              required: [id, name]
              properties:
                id: {type: integer, xml: {attribute: true}, example: 7}
                name: {type: string, example: Rex}
                tags: {type: array, xml: {wrapped: true}, items: {type: string, xml: {name: tag}}}

        """)

    @Test func acceptPicksXMLOrJSONAndABrokenXMLBodyIsReported() async throws {
        let imported = try ImportedSpec(Self.spec)
        try #require(imported.status == 0, "\(imported.error)")
        let check = try run(stubdBinary.path, ["check", "--stubs", imported.stubs.path, "--spec", imported.spec.path])
        #expect(check.status == 0, "\(check.error)")
        let serve = try ServeProcess(["--stubs", imported.stubs.path, "--spec", imported.spec.path])
        try #require(serve.port != 0, "\(serve.log)")

        let xml = try await get(serve.baseURL, "/pets/7", headers: ["Accept": "application/xml"])
        #expect(xml.status == 200 && xml.header("Content-Type")?.hasPrefix("application/xml") == true, "\(xml.headers)")
        #expect(xml.text.contains(#"<pet id="7">"#) && xml.text.contains("<name>Rex</name>"), "\(xml.text)")
        #expect(xml.header("X-Stubd-Accept") == nil && xml.header("X-Stubd-Contract") == nil, "\(xml.headers)")

        let json = try await get(serve.baseURL, "/pets/7", headers: ["Accept": "application/json"])
        #expect(json.header("Content-Type")?.hasPrefix("application/json") == true, "\(json.headers)")
        #expect(json.json["name"] as? String == "Rex" && json.json["id"] as? Int == 7, "\(json.text)")

        let good = try await http(serve.baseURL.appendingPathComponent("pets"), method: "POST",
                                  body: #"<pet id="8"><name>Fido</name><tags><tag>a</tag></tags></pet>"#, headers: ["Content-Type": "application/xml"])
        #expect(good.status == 201 && good.header("X-Stubd-Contract") == nil, "\(good.headers)")
        let broken = try await http(serve.baseURL.appendingPathComponent("pets"), method: "POST",
                                    body: #"<pet id="eight"><tags><tag>a</tag></tags></pet>"#, headers: ["Content-Type": "application/xml"])
        let problem = broken.header("X-Stubd-Contract") ?? ""
        #expect(broken.status == 201 && problem == #"2 problems: body/id: expected an integer, got the string "eight" (and 1 more)"#, "\(broken.headers)")
    }
}

import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// Specs and manifests are read as YAML 1.2 (issue 39 item 7), OpenAPI's YAML: `NO` is Norway,
/// `no` a word, `010` ten; under YAML 1.1 the first two were `false` and the spec was refused.
@Suite struct YAMLCoreSchemaTests {
    @Test func norwayAndTheWordNoStayStringsInASpec() throws {
        let spec = """
            openapi: 3.0.3
            info: { title: Countries, version: "1", description: no }
            paths:
              /countries:
                get:
                  description: on
                  parameters:
                    - { name: code, in: query, required: true, schema: { type: string, enum: [NO, SE, yes, off] } }
                    - { name: n, in: query, schema: { type: integer, maximum: 010 } }
                  responses:
                    "200": { description: yes, content: { application/json: { schema: { type: object } } } }
            """
        try withStrictEngine(spec: spec, stubs: ["countries.json": #"{"names": []}"#]) { server in
            for code in ["NO", "SE", "yes", "off"] {
                let r = server.get("/countries?code=\(code)")
                #expect(r.status == 200, "\(code)")
            }
            let ten = server.get("/countries?code=SE&n=10")
            #expect(ten.status == 200)
            let bad = server.get("/countries?code=false&n=11")
            #expect(bad.status == 422)
            let shown = ((bad.json["validation"] as? [[String: Any]]) ?? []).map { "\($0["location"] ?? "") \($0["code"] ?? "")" }
            #expect(shown.sorted() == ["query.code enum", "query.n maximum"], "\(shown)")
        }
    }

    /// The manifest had the same reading: a `json:` body's `NO` was served as `false`.
    @Test func aManifestBodyServesNorwayAsWritten() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { method: GET, path: /country }
                responses:
                  - { status: 200, json: { code: NO, active: true, answer: no, count: 010, hex: 0x1F } }
            """])
        try withEngine(stubs.url) { server in
            let r = server.get("/country")
            #expect(r.status == 200)
            let body = r.json
            #expect(body["code"] as? String == "NO" && body["answer"] as? String == "no", "\(r.text)")
            #expect(body["active"] as? Bool == true && body["count"] as? Int == 10 && body["hex"] as? Int == 31, "\(r.text)")
        }
    }
}

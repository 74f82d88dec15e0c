import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// Issue 39 item 2 under `serve --spec … --validate requests=strict`: each style as the OpenAPI
/// specification's examples write it is served; written otherwise, it gets 422 naming the parameter
/// and its style. What the engine reads of each style, through `EngineHarness` with no socket (moved
/// from StubdServerTests, where curl sent each request as written).
@Suite struct ParameterStyleAnswerTests {
    static let spec = """
        openapi: 3.1.0
        info: { title: Styles, version: "1" }
        components:
          schemas:
            RGB:
              type: object
              properties: { R: { type: integer, maximum: 255 }, G: { type: integer, maximum: 255 }, B: { type: integer, maximum: 255 } }
              required: [R, G, B]
            Colors: { type: array, items: { type: string, enum: [blue, black, brown] } }
          responses:
            ok: { description: ok, content: { application/json: { schema: { type: object } } } }
        paths:
          /items:
            get:
              parameters:
                - name: pagination
                  in: query
                  required: true
                  schema: { type: object, properties: { offset: { type: integer, minimum: 0 }, limit: { type: integer, maximum: 1000 } } }
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /label/{color}:
            get:
              parameters: [{ name: color, in: path, required: true, style: label, schema: { $ref: "#/components/schemas/Colors" } }]
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /matrix/{color}:
            get:
              parameters: [{ name: color, in: path, required: true, style: matrix, explode: true, schema: { $ref: "#/components/schemas/RGB" } }]
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /simple/{color}:
            get:
              parameters: [{ name: color, in: path, required: true, schema: { $ref: "#/components/schemas/RGB" } }]
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /query:
            get:
              parameters:
                - { name: space, in: query, style: spaceDelimited, explode: false, schema: { $ref: "#/components/schemas/Colors" } }
                - { name: pipe, in: query, style: pipeDelimited, explode: false, schema: { $ref: "#/components/schemas/Colors" } }
                - { name: deep, in: query, style: deepObject, explode: true, schema: { $ref: "#/components/schemas/RGB" } }
                - { name: form, in: query, explode: false, schema: { $ref: "#/components/schemas/Colors" } }
                - { name: exploded, in: query, schema: { $ref: "#/components/schemas/Colors" } }
                - { name: filter, in: query, content: { application/json: { schema: { type: object, properties: { max: { type: integer } } } } } }
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /header:
            get:
              parameters: [{ name: X-Color, in: header, required: true, explode: true, schema: { $ref: "#/components/schemas/RGB" } }]
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /cookie:
            get:
              parameters: [{ name: color, in: cookie, required: true, explode: false, schema: { $ref: "#/components/schemas/Colors" } }]
              responses: { "200": { $ref: "#/components/responses/ok" } }
        """

    /// The status and the `validation[]` a 422 names, as "location code".
    static func answer(_ server: EngineHarness, _ target: String, _ headers: [String: String]) -> (status: Int, problems: [String], text: String) {
        let r = server.get(target, headers: headers)
        let problems = ((r.json["validation"] as? [[String: Any]]) ?? []).map { "\($0["location"] ?? "") \($0["code"] ?? "")" }
        return (r.status, problems, r.text)
    }

    @Test func everyStyleIsReadAndAMalformedValueNamesItsStyle() throws {
        let folder = try TempStubs([
            "openapi.yaml": Self.spec,
            "stubs/items.json": "{}", "stubs/query.json": "{}", "stubs/header.json": "{}", "stubs/cookie.json": "{}",
            "stubs/label/{color}.json": "{}", "stubs/matrix/{color}.json": "{}", "stubs/simple/{color}.json": "{}",
        ])
        let contracts = ContractSet(try APIContract.load(spec: folder.url.appendingPathComponent("openapi.yaml")))
        let server = try EngineHarness(folder: folder.url.appendingPathComponent("stubs"), contracts: contracts, validation: .strict)
        let served: [(String, [String: String])] = [
            ("/items?offset=1&limit=123", [:]),
            ("/items?limit=5", [:]),
            ("/label/.blue.black.brown", [:]),
            ("/label/.blue,black,brown", [:]),
            ("/matrix/;R=100;G=200;B=150", [:]),
            ("/simple/R,100,G,200,B,150", [:]),
            ("/query?space=blue%20black%20brown&pipe=blue%7Cblack%7Cbrown&form=blue,black,brown", [:]),
            ("/query?deep[R]=100&deep[G]=200&deep[B]=150&exploded=blue&exploded=black", [:]),
            ("/query?filter=%7B%22max%22%3A5%7D", [:]),
            ("/header", ["X-Color": "R=100,G=200,B=150"]),
            ("/cookie", ["Cookie": "session=x; color=blue,black,brown"]),
        ]
        for (path, extra) in served {
            let r = Self.answer(server, path, extra)
            #expect(r.status == 200, "\(path): \(r.status) \(r.text)")
        }
        let refused: [(String, [String: String], [String], String?)] = [
            // The issue's case: before, `pagination` was looked for by its own name.
            ("/items", [:], ["query.pagination required"], "sent as its members: "),
            ("/items?offset=-1&limit=x", [:], ["query.pagination/limit type", "query.pagination/offset minimum"], nil),
            ("/label/blue", [:], ["path.color style"], "(label style, explode: false)"),
            ("/label/.blue.green", [:], ["path.color/1 enum"], nil),
            ("/matrix/R=100", [:], ["path.color style"], "(matrix style, explode: true)"),
            ("/matrix/;R=100;G=300;B=1", [:], ["path.color/G maximum"], nil),
            ("/simple/R,100,G", [:], ["path.color style"], "(simple style, explode: false)"),
            ("/simple/R,100,G,200", [:], ["path.color required"], nil),
            ("/query?space=blue,black", [:], ["query.space/0 enum"], nil),
            ("/query?deep[R]=100&deep[G=200", [:], ["query.deep style"], "(deepObject style, explode: true)"),
            ("/query?deep[R]=1", [:], ["query.deep required", "query.deep required"], nil),
            ("/query?filter=%7Bmax", [:], ["query.filter json"], "(as application/json)"),
            ("/query?filter=%7B%22max%22%3A%22five%22%7D", [:], ["query.filter/max type"], nil),
            ("/header", ["X-Color": "R=100,G"], ["header.X-Color style"], "(simple style, explode: true)"),
            ("/cookie", ["Cookie": "color=blue,green"], ["cookie.color/1 enum"], nil),
            ("/cookie", [:], ["cookie.color required"], nil),
        ]
        for (path, extra, problems, named) in refused {
            let r = Self.answer(server, path, extra)
            #expect(r.status == 422, "\(path): \(r.status) \(r.text)")
            #expect(r.problems.sorted() == problems, "\(path): \(r.text)")
            if let named { #expect(r.text.contains(named), "\(path): \(r.text)") }
        }
    }
}

import Foundation
import StubdTestSupport
import Testing

/// Swagger 2.0 documents, read by converting them to OpenAPI 3.0 on load: `openapi import`,
/// `check --spec` and `serve --spec` take them, and messages name the 2.0 file's own lines and
/// pointers (issue 39, item 8). Before, all three refused them ("convert it to OpenAPI 3 first").
/// What `check` and import name, with no server: SwaggerTwoCheckTests.
@Suite struct SwaggerTwoTests {
    static let petstore = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Swagger2/petstore-expanded.yaml")

    /// The OpenAPI Initiative's own 2.0 example: body parameters, `definitions` with `allOf`, `default`.
    @Test func thePetstoreExampleImportsChecksAndServes() async throws {
        let dir = try TempStubs([:]).url.appendingPathComponent("Stubs")
        let imported = try run(stubdBinary.path, ["openapi", "import", Self.petstore.path, "--stubs", dir.path])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("imported petstore-expanded.yaml"), "\(imported.output)")
        let manifest = try String(contentsOf: dir.appendingPathComponent("stubd.yml"), encoding: .utf8)
        for route in ["method: GET, path: \"/pets\"", "method: POST, path: \"/pets\"", "method: GET, path: \"/pets/{id}\"",
                      "method: DELETE, path: \"/pets/{id}\""] {
            #expect(manifest.contains(route), "\(route) in \(manifest)")
        }
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path, "--spec", Self.petstore.path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.contains("every answer keeps to petstore-expanded.yaml (OpenAPI 3.0.3, 4 operations)"), "\(check.output)")

        let serve = try ServeProcess(["--stubs", dir.path, "--spec", Self.petstore.path, "--validate", "requests=strict"])
        // The answer is a Pet: NewPet's name (allOf) and the id.
        let pet = try await get(serve.baseURL, "/pets/7")
        #expect(pet.status == 200, "\(pet.text)")
        #expect(pet.json["name"] is String && (pet.json["id"] as? Int) != nil, "\(pet.text)")
        // The path parameter is `type: integer` in 2.0's own words.
        let notAnInteger = try await get(serve.baseURL, "/pets/seven")
        #expect(notAnInteger.status == 422, "\(notAnInteger.text)")
        // The body parameter became the request body: `name` is required by NewPet.
        let noName = try await http(URL(string: serve.baseURL.absoluteString + "/pets")!, method: "POST",
                                    body: #"{"tag": "x"}"#, headers: ["Content-Type": "application/json"])
        #expect(noName.status == 422, "\(noName.text)")
        #expect(noName.text.contains("name"), "\(noName.text)")
        let named = try await http(URL(string: serve.baseURL.absoluteString + "/pets")!, method: "POST",
                                   body: #"{"name": "Rex"}"#, headers: ["Content-Type": "application/json"])
        #expect(named.status == 200, "\(named.text)")
    }

    static let formSpec = """
        swagger: "2.0"
        info: {title: forms, version: "1"}
        host: api.example.com
        basePath: /v2
        schemes: [https]
        securityDefinitions:
          api_key: {type: apiKey, name: api_key, in: header}
          oauth: {type: oauth2, flow: implicit, authorizationUrl: "https://example.com/auth", scopes: {write: write}}
        paths:
          /pets/{petId}:
            post:
              consumes: [application/x-www-form-urlencoded]
              produces: [application/json]
              parameters:
                - {name: petId, in: path, required: true, type: integer}
                - {name: name, in: formData, required: true, type: string}
                - {name: status, in: formData, type: string, enum: [available, sold]}
              responses:
                "200":
                  description: the pet
                  schema: {$ref: "#/definitions/Pet"}
                  headers:
                    X-Rate-Limit: {type: integer}
        definitions:
          Pet:
            type: object
            required: [id]
            properties:
              id: {type: integer}
              status: {type: string, x-nullable: true}
        """

    /// `formData` parameters are a form body whose fields the schema holds.
    @Test func formDataParametersAreAFormBody() async throws {
        let spec = try TempStubs(["swagger.yaml": Self.formSpec]).url.appendingPathComponent("swagger.yaml")
        let dir = try TempStubs([:]).url.appendingPathComponent("Stubs")
        let imported = try run(stubdBinary.path, ["openapi", "import", spec.path, "--stubs", dir.path])
        #expect(imported.status == 0, "\(imported.error)")
        let serve = try ServeProcess(["--stubs", dir.path, "--spec", spec.path, "--validate", "requests=strict"])
        let ok = try await http(URL(string: serve.baseURL.absoluteString + "/pets/3")!, method: "POST",
                                body: "name=Rex&status=sold", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(ok.status == 200, "\(ok.text)")
        #expect((ok.json["id"] as? Int) != nil, "\(ok.text)")
        #expect(ok.header("X-Rate-Limit").flatMap { Int($0) } != nil, "\(ok.headers)")
    }
}

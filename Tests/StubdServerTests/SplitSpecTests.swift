import Foundation
import StubdTestSupport
import Testing

/// A spec split across files as Redocly and most large vendors lay it out: path items, operations,
/// parameters, responses, bodies and schemas each `$ref`'d from a file of their own, and a
/// discriminator whose `mapping` points into another file. `openapi import`, `check --spec` and
/// `serve --spec` all read it, and every message names the user's own file, line and pointer
/// (issue 39, item 5).
@Suite struct SplitSpecTests {
    static let files = [
        "openapi.yaml": OpenAPISpec.document(version: "3.0.3", title: "split", """
            /things:
              $ref: paths/things.yaml
            /pets/{id}:
              get:
                $ref: paths/pet-get.yaml
            """, OpenAPISpec.get("/animals", OpenAPISpec.json(schema: """
            oneOf:
              - $ref: components/models.yaml#/Cat
              - $ref: components/models.yaml#/Dog
            discriminator:
              propertyName: kind
              mapping:
                cat: components/models.yaml#/Cat
                dog: components/models.yaml#/Dog
            """))),
        "paths/things.yaml": """
            get:
              parameters:
                - $ref: ../components/parameters.yaml#/limit
              responses:
                '200':
                  $ref: ../components/responses.yaml#/ThingList
            post:
              requestBody:
                $ref: ../components/bodies.yaml#/NewThing
              responses:
                '201':
                  description: created
                  content:
                    application/json:
                      schema: {$ref: ../components/models.yaml#/Thing}
            """,
        "paths/pet-get.yaml": """
            parameters:
              - {name: id, in: path, required: true, schema: {type: integer}}
            responses:
              '200':
                description: a pet
                content:
                  application/json:
                    schema: {$ref: ../components/models.yaml#/Cat}
            """,
        "components/parameters.yaml": "limit: {name: limit, in: query, schema: {type: integer, maximum: 10}}\n",
        "components/responses.yaml": """
            ThingList:
              description: things
              content:
                application/json:
                  schema: {type: array, items: {$ref: models.yaml#/Thing}}
            """,
        "components/bodies.yaml": """
            NewThing:
              required: true
              content:
                application/json:
                  schema: {$ref: models.yaml#/Thing}
            """,
        "components/models.yaml": """
            Thing: {type: object, required: [name], properties: {name: {type: string}}}
            Cat: {type: object, required: [kind, meows], properties: {kind: {type: string, enum: [cat]}, meows: {type: boolean}}}
            Dog: {type: object, required: [kind, barks], properties: {kind: {type: string, enum: [dog]}, barks: {type: boolean}}}
            """,
    ]

    /// Before: import warned "the schema cannot be read, so bodies are not checked" and `check --spec`
    /// refused the spec ("Found neither a $ref nor a PathItem … `responses` key … is missing").
    @Test func aSplitSpecImportsAndTheImportPassesCheckAgainstIt() throws {
        let spec = try TempStubs(Self.files).url.appendingPathComponent("openapi.yaml")
        let dir = try TempStubs([:]).url.appendingPathComponent("Stubs")
        let imported = try run(stubdBinary.path, ["openapi", "import", spec.path, "--stubs", dir.path])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.isEmpty, "no warnings: \(imported.error)")
        #expect(imported.output.contains("/Stubs: 8 routes, "), "\(imported.output)")
        let manifest = try String(contentsOf: dir.appendingPathComponent("stubd.yml"), encoding: .utf8)
        for route in ["method: GET, path: \"/things\"", "method: POST, path: \"/things\"", "method: GET, path: \"/pets/{id}\"",
                      "method: GET, path: \"/animals\""] {
            #expect(manifest.contains(route), "\(route) in \(manifest)")
        }
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path, "--spec", spec.path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.contains("every answer keeps to openapi.yaml (OpenAPI 3.0.3, 4 operations)"), "\(check.output)")
    }

    /// Schemas reached through a path item's file, a response's file, a body's file and a
    /// discriminator mapping are all held to, and named where they are written.
    @Test func answersAreHeldToSchemasInEveryFile() async throws {
        let spec = try TempStubs(Self.files).url.appendingPathComponent("openapi.yaml")
        let stubs = try TempStubs([
            "things.json": #"[{"name": 1}]"#,
            "animals.json": #"{"kind": "cat", "barks": true}"#,
            "pets/1.json": #"{"kind": "cat"}"#,
        ])
        let check = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.path])
        #expect(check.status == 1, "\(check.output)")
        for expected in [
            "things.json:1:11: GET /things 200: /0/name: expected a string, got the number 1 (the spec's rule: components/models.yaml#/Thing/properties/name/type)",
            "animals.json:1:1: GET /animals 200: the body: the required property 'meows' is missing (the spec's rule: components/models.yaml#/Cat/required)",
            "pets/1.json:1:1: GET /pets/{id} 200: the body: the required property 'meows' is missing (the spec's rule: components/models.yaml#/Cat/required)",
        ] {
            #expect(check.error.contains(expected), "\(expected) in \(check.error)")
        }

        // serve --spec holds requests to the parameter and body in their own files.
        let good = try TempStubs(["things.json": #"[{"name": "a"}]"#])
        let serve = try ServeProcess(["--stubs", good.url.path, "--spec", spec.path, "--validate", "requests=strict"])
        let tooMany = try await get(serve.baseURL, "/things?limit=11")
        #expect(tooMany.status == 422, "\(tooMany.text)")
        #expect(tooMany.text.contains("limit"), "\(tooMany.text)")
        let fine = try await get(serve.baseURL, "/things?limit=3")
        #expect(fine.status == 200, "\(fine.text)")
    }

    /// Before: "Found neither a $ref nor a PathItem in Document.paths[…]", naming a different path on
    /// each run when two were wrong. Now each `$ref` that names nothing is named where it is written.
    @Test func aReferenceThatNamesNothingIsNamedAtItsFileAndLineTheSameOnEveryRun() throws {
        var files = Self.files
        files["paths/things.yaml"] = files["paths/things.yaml"]!.replacingOccurrences(of: "responses.yaml#/ThingList", with: "responses.yaml#/Nope")
        files["openapi.yaml"] = files["openapi.yaml"]!.replacingOccurrences(of: "$ref: paths/pet-get.yaml", with: "$ref: paths/pet-get.yaml#/missing")
        let spec = try TempStubs(files).url.appendingPathComponent("openapi.yaml")
        var outputs: Set<String> = []
        for r in try SpecInputHardeningTests.everyReader(of: spec) + SpecInputHardeningTests.everyReader(of: spec) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.command == "openapi import" || r.error.contains("2 problems"), "\(r.command): \(r.error)")
            #expect(r.error.contains("openapi.yaml:8:7: #/paths/~1pets~1{id}/get: $ref names nothing: there is no paths/pet-get.yaml#/missing"),
                    "\(r.command): \(r.error)")
            #expect(r.error.contains("paths/things.yaml:6:7: #/get/responses/200: $ref names nothing: there is no components/responses.yaml#/Nope"),
                    "\(r.command): \(r.error)")
            outputs.insert(r.command + r.error.replacingOccurrences(of: spec.deletingLastPathComponent().path, with: ""))
        }
        #expect(outputs.count == 3, "one message per command on both runs: \(outputs)")
    }
}

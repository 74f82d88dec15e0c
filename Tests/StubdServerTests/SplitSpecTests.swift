import Foundation
import StubdTestSupport
import Testing

/// A spec split across files as Redocly and most large vendors lay it out: path items, operations,
/// parameters, responses, bodies and schemas each `$ref`'d from a file of their own, and a
/// discriminator whose `mapping` points into another file. `openapi import`, `check --spec` and
/// `serve --spec` all read it, and every message names the user's own file, line and pointer
/// (issue 39, item 5).
/// Import and check alone, which start no server: SplitSpecImportCheckTests.
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
}

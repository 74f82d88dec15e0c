import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// `enum: [a, 1, b]` under `type: string` (YAML reads the unquoted 1 as a number): OpenAPIKit refused
/// the whole document. The value is read as the text it spells, with a warning at its line.
@Suite struct StringEnumLeniencyTests {
    static let spec = """
        openapi: 3.0.3
        info: { title: t, version: "1" }
        paths:
          /enum:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          v: { type: string, enum: [a, 1, true] }
                      example: { v: "1" }
        """

    /// The spec's load warnings, and how many problems `check --spec` finds in a 200 JSON answer of its one operation.
    func loaded(_ name: String, _ text: String) throws -> (warnings: [String], problems: (String) -> Int) {
        try loaded(name, in: [name: text])
    }

    /// As `loaded(_:_:)`, for a spec split across `files`, `root` the one the others hang from.
    func loaded(_ root: String, in files: [String: String]) throws -> (warnings: [String], problems: (String) -> Int) {
        let folder = try TempStubs(files)
        let url = folder.url.appendingPathComponent(root)
        let warnings = try OpenAPISpec.load(spec: url).warnings.map(\.description)
        let contract = try APIContract.load(spec: url)
        let operation = try #require(contract.operations.first)
        return (warnings, { body in
            withExtendedLifetime(folder) {
                AnswerConformance.violations(status: 200, headerNames: [], contentType: "application/json", body: Data(body.utf8),
                                             of: operation, in: contract).count
            }
        })
    }

    @Test func aNumberInAStringEnumIsReadAsTextWithAWarning() throws {
        let (warnings, problems) = try loaded("openapi.yaml", Self.spec)
        #expect(warnings.contains { $0.contains("openapi.yaml:14:") && $0.contains(#"enum value 1 of a string schema is not a string; read as "1""#) }, "\(warnings)")
        #expect(warnings.contains { $0.contains(#"read as "true""#) }, "\(warnings)")
        #expect(problems(#"{"v": "1"}"#) == 0)
        #expect(problems(#"{"v": "2"}"#) > 0)
    }

    /// DigitalOcean's `properties: {$ref: '#/components/schemas/droplet_props'}`: the map kept elsewhere.
    @Test func propertiesThatAreARefAreReadAsTheMapTheyName() throws {
        let (warnings, problems) = try loaded("do.yaml", """
            openapi: 3.0.3
            info: { title: t, version: "1" }
            paths:
              /droplets:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              $ref: '#/components/schemas/droplet_props'
            components:
              schemas:
                droplet_props:
                  id: { type: integer }
                  name: { type: string }
            """)
        #expect(warnings.contains { $0.contains("'properties' is a $ref") }, "\(warnings)")
        #expect(problems(#"{"id": 3, "name": "web"}"#) == 0)
        #expect(problems(#"{"id": "three"}"#) == 1, "the properties' schemas hold")
    }

    /// DigitalOcean's bundle as it ships: the `properties: {$ref}` is in another file of a split spec
    /// (which the walk skipped, so the whole bundle was refused), and a tag's `description: {$ref}`
    /// names text in a third (Redoc's habit; OpenAPIKit refused the document for it).
    @Test func aSplitSpecsOtherFilesAreReadAsLeniently() throws {
        let (warnings, problems) = try loaded("do.yaml", in: [
            "do.yaml": """
                openapi: 3.0.3
                info: { title: t, version: "1" }
                tags:
                  - name: Intro
                    description:
                      $ref: 'description.yml#/introduction'
                paths:
                  /droplets:
                    get:
                      $ref: 'resources/droplets_list.yml'
                """,
            "description.yml": "introduction: |\n  The API, told at length.\n",
            "resources/droplets_list.yml": """
                responses:
                  "200":
                    description: ok
                    content:
                      application/json:
                        schema:
                          type: object
                          properties:
                            $ref: 'models/attributes.yml#/droplet_props'
                """,
            "resources/models/attributes.yml": "droplet_props:\n  id: { type: integer }\n",
        ])
        #expect(warnings.contains { $0.contains("resources/droplets_list.yml:9:") && $0.contains("'properties' is a $ref (resources/models/attributes.yml#/droplet_props)") },
                "\(warnings)")
        #expect(warnings.contains { $0.contains("do.yaml:6:") && $0.contains("'description' is a $ref (description.yml#/introduction); read as the text it names") },
                "\(warnings)")
        #expect(problems(#"{"id": "three"}"#) == 1, "the properties' schemas hold")
    }
}

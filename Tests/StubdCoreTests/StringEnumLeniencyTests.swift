import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
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
        let folder = try TempStubs([name: text])
        let url = folder.url.appendingPathComponent(name)
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
}

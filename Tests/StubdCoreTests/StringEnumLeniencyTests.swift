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

    @Test func aNumberInAStringEnumIsReadAsTextWithAWarning() throws {
        let folder = try TempStubs(["openapi.yaml": Self.spec])
        let url = folder.url.appendingPathComponent("openapi.yaml")
        let spec = try OpenAPISpec.load(spec: url)
        let warnings = spec.warnings.map(\.description)
        #expect(warnings.contains { $0.contains("openapi.yaml:14:") && $0.contains(#"enum value 1 of a string schema is not a string; read as "1""#) }, "\(warnings)")
        #expect(warnings.contains { $0.contains(#"read as "true""#) }, "\(warnings)")
        let contract = try APIContract.load(spec: url)
        let operation = try #require(contract.operations.first)
        #expect(AnswerConformance.violations(status: 200, headerNames: [], contentType: "application/json", body: Data(#"{"v": "1"}"#.utf8),
                                             of: operation, in: contract).isEmpty)
        #expect(!AnswerConformance.violations(status: 200, headerNames: [], contentType: "application/json", body: Data(#"{"v": "2"}"#.utf8),
                                              of: operation, in: contract).isEmpty)
    }

    /// DigitalOcean's `properties: {$ref: '#/components/schemas/droplet_props'}`: the map kept elsewhere.
    @Test func propertiesThatAreARefAreReadAsTheMapTheyName() throws {
        let folder = try TempStubs(["do.yaml": """
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
            """])
        let url = folder.url.appendingPathComponent("do.yaml")
        let spec = try OpenAPISpec.load(spec: url)
        #expect(spec.warnings.contains { $0.description.contains("'properties' is a $ref") }, "\(spec.warnings)")
        let contract = try APIContract.load(spec: url)
        let operation = try #require(contract.operations.first)
        func problems(_ body: String) -> Int {
            AnswerConformance.violations(status: 200, headerNames: [], contentType: "application/json", body: Data(body.utf8),
                                         of: operation, in: contract).count
        }
        #expect(problems(#"{"id": 3, "name": "web"}"#) == 0)
        #expect(problems(#"{"id": "three"}"#) == 1, "the properties' schemas hold")
    }
}

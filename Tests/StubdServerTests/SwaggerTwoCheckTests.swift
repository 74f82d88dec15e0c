import Foundation
import StubdTestSupport
import Testing

/// Swagger 2.0 documents under `check --spec` and `openapi import`: a stub's answer held to
/// `definitions`, a problem named at the 2.0 file's own line. No server started; split from
/// SwaggerTwoTests, which serves them.
@Suite struct SwaggerTwoCheckTests {
    /// A stub's answer is held to a 2.0 response `schema` through `definitions`, and the message names
    /// the 2.0 file's definition, not a converted place.
    @Test func answersAreHeldToDefinitionsAndNamedAtTheTwoPointZeroPlace() throws {
        let spec = try TempStubs(["swagger.yaml": SwaggerTwoTests.formSpec]).url.appendingPathComponent("swagger.yaml")
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { method: POST, path: /pets/1 }
                response: { status: 200, json: { id: "one", status: null } }
            """])
        let check = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.path])
        #expect(check.status == 1, "\(check.output)")
        #expect(check.error.contains("POST /pets/{petId} 200: /id: expected an integer"), "\(check.error)")
        #expect(check.error.contains("swagger.yaml#/definitions/Pet/properties/id/type"), "\(check.error)")
        #expect(!check.error.contains("status"), "x-nullable is nullable: \(check.error)")
    }

    /// A problem in a 2.0 document is named at its line there.
    @Test func aProblemIsNamedAtTheTwoPointZeroFilesLine() throws {
        let broken = SwaggerTwoTests.formSpec.replacingOccurrences(of: "- {name: petId, in: path, required: true, type: integer}",
                                                        with: "- {name: petId, in: path, required: true, type: integer}\n        - {name: limit, type: integer}")
        let spec = try TempStubs(["swagger.yaml": broken]).url.appendingPathComponent("swagger.yaml")
        for r in try SpecInputHardeningTests.everyReader(of: spec) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.error.contains("swagger.yaml:16:11: #/paths/~1pets~1{petId}/post/parameters/1: not a valid OpenAPI 3.0.3 document: Expected to find `in` key"), "\(r.command): \(r.error)")
        }
    }
}

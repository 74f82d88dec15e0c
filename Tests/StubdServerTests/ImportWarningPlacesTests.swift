import Foundation
import StubdTestSupport
import Testing

/// Where an import's warning says a rule is: in the file the user wrote it in, never in the bundle
/// stubd reads a split spec into (DigitalOcean's warnings named `#/x-stubd-files/shared~1meta.yml/required`).
@Suite struct ImportWarningPlacesTests {
    @Test func anExampleBreakingARuleInAnotherFileNamesThatFile() throws {
        let folder = try TempStubs([
            "spec.yaml": """
                openapi: 3.0.3
                info: {title: t, version: '1'}
                paths:
                  /prefixes:
                    get:
                      responses:
                        '200':
                          description: ok
                          content:
                            application/json:
                              schema: {$ref: 'shared/meta.yml'}
                              example: {total: 1}
                """,
            "shared/meta.yml": "type: object\nrequired: [meta]\nproperties:\n  meta: {type: object}\n",
        ])
        let stubs = try TempStubs([:]).url.appendingPathComponent("Stubs")
        let r = try run(stubdBinary.path, ["openapi", "import", folder.url.appendingPathComponent("spec.yaml").path, "--stubs", stubs.path])
        #expect(r.error.contains("example breaks the spec's own schema, left out: (root): the required property 'meta' is missing [shared/meta.yml#/required]"),
                "\(r.error)")
        #expect(!r.error.contains("x-stubd-files"), "\(r.error)")
    }
}

import Foundation
import StubdTestSupport
import Testing

/// What a spec may leave out without making its contract ambiguous (issue 39, item 9): a missing
/// `info`, a response `description` or a parameter `schema` loads with one warning per missing key,
/// at its file and line; what does make it ambiguous is still refused, saying what is missing where.
@Suite struct LenientSpecTests {
    static let spec = """
        openapi: 3.1.0
        paths:
          /things:
            get:
              parameters:
                - {name: q, in: query}
              responses:
                '200':
                  content:
                    application/json:
                      schema: {type: object, required: [id], properties: {id: {type: integer}}}
                '404': {$ref: '#/components/responses/Missing'}
          /others:
            get:
              responses:
                '404': {$ref: '#/components/responses/Missing'}
        components:
          responses:
            Missing:
              content:
                application/json:
                  schema: {type: object}
        """

    /// Before: every command refused it ("Found neither a $ref nor a Response in … `description` …").
    @Test func missingInfoDescriptionsAndSchemasLoadWithOneWarningEach() throws {
        let spec = try TempStubs(["openapi.yaml": Self.spec]).url.appendingPathComponent("openapi.yaml")
        let stubs = try TempStubs(["things.json": #"{"id": 1}"#])
        let dir = try TempStubs([:]).url.appendingPathComponent("Stubs")
        let check = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.path])
        let imported = try run(stubdBinary.path, ["openapi", "import", spec.path, "--stubs", dir.path])
        let runs = [("check", check), ("openapi import", imported)]
        for (command, r) in runs {
            #expect(r.status == 0, "\(command): \(r.error)")
            let warnings = [
                "openapi.yaml:1:1: #: no 'info'; read as if it named the API after its file",
                "openapi.yaml:6:11: #/paths/~1things/get/parameters/0: no 'schema' (nor 'content'); any value is accepted",
                "openapi.yaml:9:11: #/paths/~1things/get/responses/200: no 'description'; read as empty",
                "openapi.yaml:20:7: #/components/responses/Missing: no 'description'; read as empty",
            ]
            for warning in warnings {
                #expect(r.error.components(separatedBy: warning).count == 2, "once: \(warning) in \(command): \(r.error)")
            }
        }
        // serve --spec reads it too, and holds answers to what is there.
        let bad = try TempStubs(["things.json": #"{"id": "one"}"#])
        let refused = try run(stubdBinary.path, ["check", "--stubs", bad.url.path, "--spec", spec.path])
        #expect(refused.status == 1)
        #expect(refused.error.contains("things.json:1:8: GET /things 200: /id: expected an integer"), "\(refused.error)")
    }

    /// What makes the contract ambiguous is refused, and the message says what is missing and where,
    /// not OpenAPIKit's "Found neither a $ref nor a Parameter".
    @Test func aParameterWithoutInIsRefusedSayingWhatIsMissingWhere() throws {
        let spec = try TempStubs(["openapi.yaml": Self.spec.replacingOccurrences(of: "{name: q, in: query}", with: "{name: q}")])
            .url.appendingPathComponent("openapi.yaml")
        for r in try SpecInputHardeningTests.everyReader(of: spec) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.error.contains("openapi.yaml:6:11: #/paths/~1things/get/parameters/0: not a valid OpenAPI 3.1.0 document: Expected to find `in` key but it is missing."),
                    "\(r.command): \(r.error)")
            #expect(!r.error.contains("Found neither"), "\(r.command): \(r.error)")
            #expect(!r.error.contains("**"), "no markdown: \(r.command): \(r.error)")
        }
    }
}

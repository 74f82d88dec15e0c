import Foundation
import StubdTestSupport
import Testing

/// A folder holding several specs' imports (vendors ship one spec per service): a second spec is
/// taken in only when asked (`--add` or `--replace`), and each route is checked against its own spec.
/// `check` and `--replace` alone, which start no server: SeveralSpecsImportCheckTests.
@Suite struct SeveralSpecsImportTests {
    static func spec(_ path: String, _ id: String, _ field: String) -> String {
        """
        openapi: 3.1.0
        info: {title: \(id), version: '1'}
        paths:
          \(path):
            get:
              operationId: \(id)
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {type: object, required: [\(field)], properties: {\(field): {type: string}}}
                      example: {\(field): from-\(id)}
        """
    }

    static let specs: [String: String] = [
        "verify.yaml": spec("/v2/Services", "ListService", "verify"),
        "messaging.yaml": spec("/v1/Services", "ListService", "messaging"),
        "other.yaml": spec("/v3/Things", "ListThing", "thing"),
    ]

    /// Before: the second import exited 0, dropped the first spec's routes from stubd.yml and left
    /// its body files behind, orphaned.
    @Test func aSecondSpecIsRefusedUnlessAddedAndThenBothAreServedAndChecked() async throws {
        let folder = try TempStubs(Self.specs)
        let verify = folder.url.appendingPathComponent("verify.yaml"), messaging = folder.url.appendingPathComponent("messaging.yaml")
        let dir = try OpenAPIImportTests.freshFolder()
        #expect(try OpenAPIImportTests.importInto(verify, dir).status == 0)
        let before = try OpenAPIImportTests.contents(dir)

        let refused = try OpenAPIImportTests.importInto(messaging, dir)
        #expect(refused.status == 1)
        #expect(refused.error.contains("holds the import of verify.yaml (2 routes); importing messaging.yaml there would replace it"), "\(refused.error)")
        #expect(refused.error.contains("--add") && refused.error.contains("--replace"), "\(refused.error)")
        #expect(try OpenAPIImportTests.contents(dir) == before, "nothing written")

        let added = try OpenAPIImportTests.importInto(messaging, dir, ["--add"])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output.contains("imported messaging.yaml into"), "\(added.output)")
        #expect(added.output.contains("(beside verify.yaml: 2)"), "\(added.output)")
        // The same operationId in both: each keeps a folder of its own.
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("__files/ListService/200.json").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("__files/ListService_/200.json").path))

        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path, "--spec", verify.path, "--spec", messaging.path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.contains("every answer keeps to verify.yaml (OpenAPI 3.1.0, 1 operations) and messaging.yaml"), "\(check.output)")
        #expect(!check.output.contains("matches no operation"), "\(check.output)")

        let serve = try ServeProcess(["--stubs", dir.path])
        #expect(try await get(serve.baseURL, "/v2/Services").json["verify"] as? String == "from-ListService")
        #expect(try await get(serve.baseURL, "/v1/Services").json["messaging"] as? String == "from-ListService")

        // Importing one of them again keeps the other's routes.
        let again = try OpenAPIImportTests.importInto(verify, dir)
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output.contains("0 files written"), "\(again.output)")
        #expect(try String(contentsOf: dir.appendingPathComponent("stubd.yml"), encoding: .utf8).contains("/v1/Services"))
    }
}

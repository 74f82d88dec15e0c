import Foundation
import StubdTestSupport
import Testing

/// `--strict-spec` (issue 58): what stubd reads leniently or leaves out is otherwise a warning at its
/// file:line and the rest is used; a spec's owner can ask for refusal instead, in every command that reads one.
/// The import's own warnings and refusals, with no server: StrictSpecImportTests.
@Suite struct StrictSpecTests {
    /// A string enum holding a number (read as text) and a response without a description (read as empty).
    static let lenient = """
        openapi: 3.0.3
        info: {title: t, version: '1'}
        paths:
          /units:
            get:
              responses:
                '200':
                  content:
                    application/json:
                      schema: {type: object, properties: {unit: {type: string, enum: [metric, 1]}}}
                      example: {unit: metric}
        """

    @Test(arguments: [["check"], ["serve", "--port", "0"]])
    func checkAndServeRefuseWhenStrict(command: [String]) throws {
        let imported = try ImportedSpec(Self.lenient)
        let lenient = try run(stubdBinary.path, ["check", "--stubs", imported.stubs.path, "--spec", imported.spec.path])
        #expect(lenient.status == 0, "\(lenient.error)")
        // serve refuses before it listens, so it exits rather than serving.
        let strict = try run(stubdBinary.path, command + ["--stubs", imported.stubs.path, "--spec", imported.spec.path, "--strict-spec"])
        #expect(strict.status == 1, "\(strict.output)")
        #expect(strict.error.contains("enum value 1 of a string schema is not a string"), "\(strict.error)")
        #expect(strict.error.contains("--strict-spec refuses"), "\(strict.error)")
        #expect(!strict.error.contains("warning:"), "a refused part is not a warning: \(strict.error)")
    }
}

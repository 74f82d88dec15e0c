import Foundation
import StubdTestSupport
import Testing

/// A spec is input like any other: `check --spec`, `serve --spec` and `openapi import` read it, and
/// nothing in it may make them expand without bound or read and print files outside its folder (issue 38).
@Suite struct SpecInputHardeningTests {
    /// The three commands that read a spec, each given `spec` (the Stubs folder holds one answer).
    static func everyReader(of spec: URL, environment: [String: String]? = nil) throws -> [(command: String, status: Int32, error: String)] {
        let stubs = try TempStubs(["a.json": "{}"])
        let imported = try TempStubs([:]).url.appendingPathComponent("Stubs")
        let runs: [(String, [String])] = [
            ("check", ["check", "--stubs", stubs.url.path, "--spec", spec.path]),
            ("serve", ["serve", "--stubs", stubs.url.path, "--port", "0", "--spec", spec.path]),
            ("openapi import", ["openapi", "import", spec.path, "--stubs", imported.path]),
        ]
        return try runs.map { name, arguments in
            let r = try run(stubdBinary.path, arguments, environment: environment)
            return (name, r.status, r.error)
        }
    }

    static let header = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n"

    /// 770 bytes: nine levels of ten aliases, a billion strings once expanded.
    static let aliasBomb: String = {
        var lines = ["x-laughs:", "  a0: &a0 [" + Array(repeating: "lol", count: 10).joined(separator: ", ") + "]"]
        for level in 1...8 {
            lines.append("  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func aYAMLAliasBombInASpecIsRefusedByEveryCommandThatReadsIt() throws {
        let folder = try TempStubs(["openapi.yaml": Self.header + Self.aliasBomb])
        for r in try Self.everyReader(of: folder.url.appendingPathComponent("openapi.yaml")) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.error.contains("openapi.yaml:5:7: YAML anchor &a0 is not allowed"), "\(r.command): \(r.error)")
        }
    }

    /// A JSON spec cannot hold an alias, but a YAML file it references can.
    @Test func aJSONSpecReferencingAnAliasBombIsRefused() throws {
        let folder = try TempStubs([
            "openapi.json": #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "x-laughs": {"$ref": "laughs.yaml"}}"#,
            "laughs.yaml": Self.aliasBomb,
        ])
        for r in try Self.everyReader(of: folder.url.appendingPathComponent("openapi.json")) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.error.contains("laughs.yaml:2:7: YAML anchor &a0 is not allowed"), "\(r.command): \(r.error)")
        }
    }

    static func spec(referencing ref: String) -> String {
        OpenAPISpec.document(OpenAPISpec.get("/a", OpenAPISpec.json(schema: "{$ref: '\(ref)'}")))
    }

    /// The environment holds tokens; before, `/proc/self/environ` was read as YAML and its first
    /// line (all of it) printed in the "invalid YAML" message.
    @Test func aReferenceToTheEnvironmentIsRefusedAndNothingOfItIsPrinted() throws {
        let folder = try TempStubs(["openapi.yaml": Self.spec(referencing: "/proc/self/environ")])
        var environment = ProcessInfo.processInfo.environment
        environment["STUBD_TEST_SECRET"] = "hunter2-do-not-print"
        for r in try Self.everyReader(of: folder.url.appendingPathComponent("openapi.yaml"), environment: environment) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.error.contains("openapi.yaml: $ref /proc/self/environ is outside the spec's folder"), "\(r.command): \(r.error)")
            #expect(!r.error.contains("hunter2"), "\(r.command): \(r.error)")
        }
    }

    @Test(arguments: ["/etc/hosts", "../outside.yaml", "schemas/../../outside.yaml"])
    func aReferenceOutOfTheSpecsFolderIsNotRead(ref: String) throws {
        let parent = try TempStubs(["outside.yaml": "type: string\ndescription: private-outside-text\n",
                                    "api/openapi.yaml": Self.spec(referencing: ref)])
        for r in try Self.everyReader(of: parent.url.appendingPathComponent("api/openapi.yaml")) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.error.contains("$ref \(ref) is outside the spec's folder"), "\(r.command): \(r.error)")
            #expect(!r.error.contains("private-outside-text") && !r.error.contains("localhost"), "\(r.command): \(r.error)")
        }
    }

    @Test func aSymbolicLinkInTheFolderPointingOutIsNotFollowed() throws {
        let parent = try TempStubs(["outside.yaml": "- private-outside-text\n",
                                    "api/openapi.yaml": Self.spec(referencing: "schemas/answer.yaml")])
        try FileManager.default.createDirectory(at: parent.url.appendingPathComponent("api/schemas"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: parent.url.appendingPathComponent("api/schemas/answer.yaml").path,
                                                   withDestinationPath: "../../outside.yaml")
        for r in try Self.everyReader(of: parent.url.appendingPathComponent("api/openapi.yaml")) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.error.contains("$ref schemas/answer.yaml leads through a symbolic link outside the spec's folder"), "\(r.command): \(r.error)")
            #expect(!r.error.contains("private-outside-text"), "\(r.command): \(r.error)")
        }
    }

    /// A file inside the folder that is not YAML is named by line and column, its text never quoted.
    @Test func aReferencedFileThatIsNotYAMLIsNotQuoted() throws {
        let folder = try TempStubs(["openapi.yaml": Self.spec(referencing: "key.pem"),
                                    "key.pem": "key: private\u{01}-key-text\n"])
        for r in try Self.everyReader(of: folder.url.appendingPathComponent("openapi.yaml")) {
            #expect(r.status == 1, "\(r.command): \(r.error)")
            #expect(r.error.contains("key.pem:1:13: invalid YAML: control characters are not allowed"), "\(r.command): \(r.error)")
            #expect(!r.error.contains("private"), "\(r.command): \(r.error)")
        }
    }
}

import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine

/// The official JSON Schema Test Suite's draft 2020-12 cases for the keywords the validator claims
/// (Fixtures/JSONSchemaTestSuite, see its README). Every case runs unless `skipped` lists its group,
/// with the reason: a claimed keyword never fails silently.
@Suite struct JSONSchemaTestSuiteTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/JSONSchemaTestSuite")

    /// "file | group description" → why: each needs a feature the validator does not claim.
    static let skipped: [String: String] = [
        "ref.json | remote ref, containing refs itself": "remote refs",
        "ref.json | refs with relative uris and defs": "$id-based resolution",
        "ref.json | relative refs with absolute uris and defs": "$id-based resolution",
        "ref.json | $id must be resolved against nearest parent, not just immediate parent": "$id-based resolution",
        "ref.json | order of evaluation: $id and $ref": "$id-based resolution",
        "ref.json | order of evaluation: $id and $anchor and $ref": "$id and $anchor",
        "ref.json | order of evaluation: $id and $ref on nested schema": "$id-based resolution",
        "ref.json | simple URN base URI with $ref via the URN": "$id-based resolution",
        "ref.json | simple URN base URI with JSON pointer": "$id-based resolution",
        "ref.json | URN base URI with NSS": "$id-based resolution",
        "ref.json | URN base URI with r-component": "$id-based resolution",
        "ref.json | URN base URI with q-component": "$id-based resolution",
        "ref.json | URN base URI with URN and JSON pointer ref": "$id-based resolution",
        "ref.json | URN base URI with URN and anchor ref": "$id and $anchor",
        "ref.json | URN ref with nested pointer ref": "$id-based resolution",
        "ref.json | ref to if": "$id-based resolution; if/then/else",
        "ref.json | ref to then": "$id-based resolution; if/then/else",
        "ref.json | ref to else": "$id-based resolution; if/then/else",
        "ref.json | ref with absolute-path-reference": "$id-based resolution",
        "ref.json | $id with file URI still resolves pointers - *nix": "$id-based resolution",
        "ref.json | $id with file URI still resolves pointers - windows": "$id-based resolution",
        "ref.json | Recursive references between schemas": "$id-based resolution (recursion itself is tested in JSONSchemaErrorTests)",
        "ref.json | ref creates new scope when adjacent to keywords": "unevaluatedProperties",
        "not.json | collect annotations inside a 'not', even if collection is disabled": "unevaluatedProperties",
    ]

    static func files() -> [String] {
        let fm = FileManager.default
        let top = (try? fm.contentsOfDirectory(atPath: fixtures.path)) ?? []
        let formats = (try? fm.contentsOfDirectory(atPath: fixtures.appendingPathComponent("format").path)) ?? []
        return (top.filter { $0.hasSuffix(".json") } + formats.map { "format/" + $0 }).sorted()
    }

    @Test func theFixturesAreThere() {
        #expect(Self.files().count >= 30)
    }

    @Test(arguments: files())
    func everyCasePasses(file: String) throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(file))
        guard case .array(let groups) = try JSONParser.parse(data) else { Issue.record("\(file) is not an array"); return }
        var ran = 0
        for case .object(let group) in groups {
            guard case .string(let description)? = group["description"], let schemaValue = group["schema"],
                  case .array(let tests)? = group["tests"] else { continue }
            let name = file.replacingOccurrences(of: "format/", with: "") + " | " + description
            if Self.skipped[name] != nil { continue }
            let schema: JSONSchema
            do {
                schema = try JSONSchema(schemaValue)
            } catch {
                Issue.record("\(name): the schema did not compile: \(error)")
                continue
            }
            for case .object(let test) in tests {
                guard case .string(let what)? = test["description"], let data = test["data"],
                      case .bool(let valid)? = test["valid"] else { continue }
                let violations = schema.validate(data)
                #expect(violations.isEmpty == valid, "\(name) | \(what): expected \(valid ? "valid" : "invalid"), got \(violations)")
                #expect(schema.isValid(data) == valid, "\(name) | \(what): isValid disagrees")
                ran += 1
            }
        }
        #expect(ran > 0, "\(file): no case ran")
    }

    /// Each skip names a group that exists, so a renamed group cannot turn into a silent pass.
    @Test func everySkipNamesAGroupThatExists() throws {
        var groups: Set<String> = []
        for file in Self.files() {
            let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(file))
            guard case .array(let list) = try JSONParser.parse(data) else { continue }
            for case .object(let group) in list {
                if case .string(let d)? = group["description"] { groups.insert(file.replacingOccurrences(of: "format/", with: "") + " | " + d) }
            }
        }
        for name in Self.skipped.keys { #expect(groups.contains(name), "\(name) is skipped but no longer in the fixtures") }
    }
}

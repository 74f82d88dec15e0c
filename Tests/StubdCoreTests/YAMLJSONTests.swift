import Testing
import Yams
@testable import StubdCore
@testable import StubdEngine

/// The one YAML → JSON reading the manifest and the spec loader share; they differ only in what a
/// number JSON cannot write becomes, which each caller decides.
@Suite struct YAMLJSONTests {
    static let text = """
    200: {ok: true, n: 3, x: 1.5, none: null, list: [a, 2]}
    odd: .inf
    """

    @Test func typesKeysAndNestingAreKept() throws {
        let node = try #require(try Yams.compose(yaml: YAMLJSONTests.text, YAMLCoreSchema.resolver))
        let value = YAMLJSON.value(node) { _, text in .string(text) }
        guard case .object(let members) = value, case .object(let inner) = members["200"] else {
            Issue.record("not an object with the integer key read as \"200\": \(value)")
            return
        }
        #expect(inner == ["ok": .bool(true), "n": .number(3), "x": .number(1.5), "none": .null, "list": .array([.string("a"), .number(2)])])
    }

    @Test func theCallerDecidesWhatANonFiniteNumberBecomes() throws {
        let node = try #require(try Yams.compose(yaml: YAMLJSONTests.text, YAMLCoreSchema.resolver))
        var seen: [String] = []
        let kept = YAMLJSON.value(node) { _, text in seen.append(text); return .string(text) }
        let dropped = YAMLJSON.value(node) { _, _ in .null }
        guard case .object(let a) = kept, case .object(let b) = dropped else { Issue.record("not objects"); return }
        #expect(a["odd"] == .string(".inf"))
        #expect(b["odd"] == .null)
        #expect(seen == [".inf"])
    }
}

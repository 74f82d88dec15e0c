import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing

/// A resource's seed file checked by `stubd check` (issue 42): each problem at its place; no server
/// started. Split from ResourceServerTests.
@Suite struct ResourceSeedCheckTests {
    @Test func aSeedFilesProblemsAreReportedAtTheirPlace() throws {
        let stubs = try TempStubs(["stubd.yml": "resources:\n  - path: /todos\n",
                                   "__files/resources/todos.json": "[\n  {\"id\": 1},\n  {\"title\": \"no id\"},\n  {\"id\": 1}\n]"])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status != 0)
        let text = r.output + r.error
        #expect(text.contains("__files/resources/todos.json:3:3"), "the item without an id, where it starts: \(text)")
        #expect(text.contains("__files/resources/todos.json:4:3") && text.contains("given twice"), "\(text)")
        let broken = try TempStubs(["stubd.yml": "resources:\n  - path: /todos\n    seed: t.json\n", "__files/t.json": "[\n {\"id\": 1,}\n]"])
        let b = try run(stubdBinary.path, ["check", "--stubs", broken.url.path])
        #expect((b.output + b.error).contains("__files/t.json:2:"), "\(b.output) \(b.error)")
    }
}

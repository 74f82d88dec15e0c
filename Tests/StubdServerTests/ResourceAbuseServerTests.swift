import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdTestSupport
import Testing

/// Issue 57, resources over the wire: the probe's requests each get a 4xx, the server answers the
/// next request, and its memory stays where it was (each of them once killed `stubd serve`).
@Suite struct ResourceAbuseServerTests {
    @Test func thePagingQueryTheCopyBombAndTheDeepPatchEachGetA4xx() async throws {
        let stubs = try TempStubs(["stubd.yml": """
            resources:
              - path: /todos
                items:
                  - { id: 1, title: "one" }
            """])
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let base = server.baseURL.absoluteString
        let health = try await http(URL(string: base + "/__stubd/health")!)
        #expect(health.status == 200)
        let startingPeak = server.peakResidentBytes

        for query in ["offset=1&limit=9223372036854775807", "page=2&per_page=9223372036854775807"] {
            let listed = try await http(URL(string: base + "/todos?" + query)!)
            #expect(listed.status == 200 && listed.text == "[]", "\(query): \(listed.status) \(listed.text)")
        }
        func patch(_ operations: [String]) async throws -> HTTPResult {
            try await http(URL(string: base + "/todos/1")!, method: "PATCH", body: "[" + operations.joined(separator: ",") + "]",
                           headers: ["Content-Type": "application/json-patch+json"])
        }
        let bomb = try await patch((0..<32).map { #"{"op":"copy","from":"","path":"/c\#($0)"}"# })
        #expect(bomb.status == 422 && bomb.text.contains("maxItemBytes"), "\(bomb.status) \(bomb.text)")
        let copy = #"{"op":"copy","from":"","path":"/a"}"#
        let long = try await patch(Array(repeating: copy, count: 1_000))
        #expect(long.status == 400 && long.text.contains("at most 100 operations"), "\(long.status) \(long.text)")

        let item = try await http(URL(string: base + "/todos/1")!)
        #expect(item.status == 200 && item.text == #"{"id":1,"title":"one"}"#, "nothing applied, and the server answers: \(item.text)")
        // The same nesting in patches of 100: five fit, the one that would pass 512 levels is refused.
        for _ in 1...5 { #expect(try await patch(Array(repeating: copy, count: 100)).status == 200) }
        let deep = try await patch(Array(repeating: copy, count: 100))
        #expect(deep.status == 422 && deep.text.contains("512 levels"), "\(deep.status) \(deep.text)")
        #expect(try await http(URL(string: base + "/todos/1")!).status == 200, "the 500-level item writes")
        let grown = server.peakResidentBytes - startingPeak
        #expect(grown < Int(bound(50)) << 20, "peak resident memory grew \(grown >> 20) MB")
    }
}

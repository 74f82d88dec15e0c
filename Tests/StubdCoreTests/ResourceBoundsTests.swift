import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 57, resources: no request on a collection may trap, grow an item without bound or make one
/// the JSON writer cannot write. Through the engine, as `stubd serve` answers, without a socket.
@Suite struct ResourceBoundsTests {
    static let manifest = """
        resources:
          - path: /todos
            items:
              - { id: 1, title: "one", tags: ["a", "b"] }
          - path: /notes
            maxItemBytes: 200
            items:
              - { id: 1, text: "short" }
        """

    private func engine() throws -> StubEngine {
        StubEngine(catalog: try TempStubs(["stubd.yml": Self.manifest]).load())
    }

    private func call(_ engine: StubEngine, _ method: HTTPRequest.Method, _ target: String, _ body: String? = nil,
                      contentType: String = "application/json") -> (status: Int, text: String) {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? queryItems(parsing: parts[1]) : []
        let head = RequestHead(method: method, path: String(parts[0]), query: query,
                               headers: body == nil ? fields(["Host": "127.0.0.1"]) : fields(["Host": "127.0.0.1", "Content-Type": contentType]),
                               body: Data((body ?? "").utf8))
        let outcome = engine.respond(to: head, in: engine.defaultSession)
        guard case .generated(let answer) = outcome.answer else { return (outcome.status.code, "") }
        return (outcome.status.code, String(decoding: answer.body, as: UTF8.self))
    }

    private func jsonPatch(_ engine: StubEngine, _ target: String, _ operations: [String]) -> (status: Int, text: String) {
        call(engine, .patch, target, "[" + operations.joined(separator: ",") + "]", contentType: "application/json-patch+json")
    }

    @Test func aPageWindowPastIntMaxListsWhatThereIsInsteadOfTrapping() throws {
        let engine = try engine()
        for query in ["offset=1&limit=9223372036854775807", "page=2&per_page=9223372036854775807",
                      "page=9223372036854775807&per_page=9223372036854775807"] {
            let answer = call(engine, .get, "/todos?" + query)
            #expect(answer.status == 200 && answer.text == "[]", "\(query): \(answer.status) \(answer.text)")
        }
        let all = call(engine, .get, "/todos?offset=0&limit=9223372036854775807")
        #expect(all.status == 200 && all.text.contains("\"one\""), "\(all.text)")
    }

    /// Copies of the whole item into itself, each doubling it: the probe's 32 asked for 2^32 times the
    /// item (31 s under the lock, then 2.7 GB and an abort); 20 make a 40 MB item the old code kept.
    @Test func aCopyBombIsRefusedAndNothingIsWritten() throws {
        let engine = try engine()
        let before = call(engine, .get, "/todos/1").text
        let answer = jsonPatch(engine, "/todos/1", (0..<20).map { #"{"op":"copy","from":"","path":"/c\#($0)"}"# })
        #expect(answer.status == 422 && answer.text.contains("maxItemBytes"), "\(answer.status) \(answer.text)")
        #expect(call(engine, .get, "/todos/1").text == before, "a refused patch applies nothing")
    }

    /// `copy "" -> /a` nests the item one level deeper each time: 600 of them, past the parser's 512,
    /// sent as patches of 100 (the most one may carry): five fit, the sixth is refused whole.
    @Test func aPatchNestingPastTheParserDepthIsRefused() throws {
        let engine = try engine()
        let hundred = Array(repeating: #"{"op":"copy","from":"","path":"/a"}"#, count: 100)
        for step in 1...5 {
            let nested = jsonPatch(engine, "/todos/1", hundred)
            #expect(nested.status == 200, "\(step * 100) levels fit: \(nested.status) \(nested.text)")
        }
        let before = call(engine, .get, "/todos/1").text
        let answer = jsonPatch(engine, "/todos/1", hundred)
        #expect(answer.status == 422 && answer.text.contains("512 levels"), "\(answer.status) \(answer.text)")
        #expect(call(engine, .get, "/todos/1").text == before, "a refused patch applies nothing")
    }

    /// Merge patch after merge patch, each within the body limit, grew one item past any size.
    @Test func patchesCannotGrowAnItemPastMaxItemBytes() throws {
        let engine = try engine()
        let field = String(repeating: "x", count: 120)
        #expect(call(engine, .patch, "/notes/1", #"{"a": "\#(field)"}"#).status == 200)
        let second = call(engine, .patch, "/notes/1", #"{"b": "\#(field)"}"#)
        #expect(second.status == 422 && second.text.contains("200 bytes"), "\(second.status) \(second.text)")
        let added = jsonPatch(engine, "/notes/1", [#"{"op":"add","path":"/b","value":"\#(field)"}"#])
        #expect(added.status == 422, "\(added.status) \(added.text)")
        #expect(!call(engine, .get, "/notes/1").text.contains("\"b\""))
    }

    @Test func theAdminPutHoldsItemsToMaxItemBytes() throws {
        let engine = try engine()
        let big = #"[{"id": 1, "text": "\#(String(repeating: "x", count: 300))"}]"#
        let answer = AdminEndpoints(engine: engine).resourceItems(method: .put, name: "notes", body: Data(big.utf8), session: engine.defaultSession)
        #expect(answer.status == .contentTooLarge && String(decoding: answer.body, as: UTF8.self).contains("maxItemBytes"),
                "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        #expect(engine.defaultSession.resourceStore(for: engine.catalog.resources["notes"]!).allItems().count == 1, "nothing replaced")
    }

    /// RFC 6901: `01` is not an index (Swift's `Int` reads it, and `+1`, as 1).
    @Test func anArrayIndexWithALeadingZeroIsRefused() throws {
        let engine = try engine()
        for token in ["01", "+1", "-0"] {
            let answer = jsonPatch(engine, "/todos/1", [#"{"op":"add","path":"/tags/\#(token)","value":"c"}"#])
            #expect(answer.status == 400 && answer.text.contains("leading zeros"), "\(token): \(answer.status) \(answer.text)")
        }
        #expect(jsonPatch(engine, "/todos/1", [#"{"op":"add","path":"/tags/1","value":"c"}"#]).status == 200)
    }

    /// Each operation may measure the whole item: a patch of thousands held the resource for seconds.
    @Test func aJSONPatchCarriesAtMostAHundredOperations() throws {
        let engine = try engine()
        let test = #"{"op":"test","path":"/title","value":"nope"}"#
        let many = jsonPatch(engine, "/todos/1", Array(repeating: test, count: 101))
        #expect(many.status == 400 && many.text.contains("at most 100 operations"), "\(many.status) \(many.text)")
        let replace = #"{"op":"replace","path":"/title","value":"x"}"#
        #expect(jsonPatch(engine, "/todos/1", Array(repeating: replace, count: 100)).status == 200)
    }

    @Test func aListTakesAtMostAHundredFilterNames() throws {
        let engine = try engine()
        let query = (0..<101).map { "n\($0)=x" }.joined(separator: "&")
        let answer = call(engine, .get, "/todos?" + query)
        #expect(answer.status == 400 && answer.text.contains("at most 100"), "\(answer.status) \(answer.text)")
        #expect(call(engine, .get, "/todos?" + (0..<100).map { "n\($0)=x" }.joined(separator: "&")).status == 200)
    }

    /// Whether a filter's name is a field is kept as items come and go: a name stops filtering once
    /// the last item with it is gone or changed.
    @Test func aFilterNameCountsOnlyWhileAnItemHasTheField() throws {
        let engine = try engine()
        #expect(call(engine, .post, "/todos", #"{"title": "two", "owner": "ann"}"#).status == 201)
        #expect(call(engine, .get, "/todos?owner=bob").text == "[]", "owner is a field: it filters")
        #expect(call(engine, .put, "/todos/2", #"{"title": "two"}"#).status == 200)
        #expect(call(engine, .get, "/todos?owner=bob").text.contains("\"two\""), "no item has owner now: it filters nothing")
        #expect(call(engine, .patch, "/todos/1", #"{"owner": "bob"}"#).status == 200)
        #expect(call(engine, .get, "/todos?owner=bob").text.contains("\"one\"") && !call(engine, .get, "/todos?owner=bob").text.contains("\"two\""))
        #expect(call(engine, .delete, "/todos/1").status == 204)
        #expect(call(engine, .get, "/todos?owner=bob").text.contains("\"two\""))
    }

    /// The writer keeps its own stack: a value far deeper than any parse or patch makes still writes.
    @Test func theJSONWriterWritesAnyDepth() {
        var value = JSONValue.array([])
        for _ in 0..<200_000 { value = .array([value]) }
        let text = value.serialized
        #expect(text.utf8.count == 2 * 200_001 && text.hasPrefix("[[[") && text.hasSuffix("]]]"))
        // Releasing it would recurse as deep (Swift frees nested arrays recursively): kept for the process's life.
        _ = Unmanaged.passRetained(DeepValueKeeper(value))
    }

    private final class DeepValueKeeper {
        let value: JSONValue
        init(_ value: JSONValue) { self.value = value }
    }
}

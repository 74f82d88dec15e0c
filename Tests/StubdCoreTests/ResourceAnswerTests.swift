import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Resources (issue 42): a collection declared in stubd.yml, answered by the engine with no socket
/// (`EngineHarness`; these ran through `stubd serve` before issue 59): its items' life, lists,
/// filters, pages, limits and default headers. Sessions and resets through the /__s/ prefix:
/// ResourceSessionAnswerTests. ResourceServerTests in StubdServerTests keeps concurrent writes on 8
/// threads, StubdClient and Python's requests; ResourceSeedCheckTests `stubd check`'s seed problems.
@Suite struct ResourceAnswerTests {
    /// ResourceServerTests' manifest and seed.
    static let manifest = ResourceStubs.manifest

    static func stubs() throws -> TempStubs { try ResourceStubs.stubs() }

    /// A body goes as `application/json` unless `contentType` says otherwise (a patch's media type).
    private func call(_ harness: EngineHarness, _ path: String, _ method: HTTPRequest.Method = .get, _ body: String? = nil,
                      contentType: String = "application/json", session: String = "") -> EngineAnswer {
        harness.answer(path, method: method, headers: body == nil ? [:] : ["Content-Type": contentType], body: body ?? "", session: session)
    }

    private func array(_ r: EngineAnswer) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: r.body)) as? [[String: Any]] ?? []
    }

    /// An item created, read, replaced, merge- and JSON-patched and deleted in session t1: its Location
    /// keeps the session's /__s/ prefix (the request named it by the prefix, not the header).
    @Test func createReadReplacePatchAndDeleteAnItem() throws {
        let stubs = try Self.stubs()
        let harness = try EngineHarness(stubs)
        let created = call(harness, "/todos", .post, #"{"title": "buy milk"}"#, session: "t1")
        #expect(created.status == 201, "\(created.text)")
        #expect(created.header("Location") == "/__s/t1/todos/26", "increment: one past the seed's largest id")
        #expect(created.json["id"] as? Int == 26)

        let read = call(harness, "/todos/26", session: "t1")
        #expect(read.status == 200 && read.json["title"] as? String == "buy milk", "\(read.text)")

        let replaced = call(harness, "/todos/26", .put, #"{"title": "buy oat milk", "done": false}"#, session: "t1")
        #expect(replaced.status == 200 && replaced.json["id"] as? Int == 26 && replaced.json["title"] as? String == "buy oat milk", "\(replaced.text)")

        let merged = call(harness, "/todos/26", .patch, #"{"done": true, "title": null}"#,
                          contentType: "application/merge-patch+json", session: "t1")
        #expect(merged.status == 200 && merged.json["done"] as? Bool == true && merged.json["title"] == nil, "RFC 7396: null removes: \(merged.text)")

        let patched = call(harness, "/todos/26", .patch,
                           #"[{"op": "test", "path": "/done", "value": true}, {"op": "add", "path": "/title", "value": "milk"}]"#,
                           contentType: "application/json-patch+json", session: "t1")
        #expect(patched.status == 200 && patched.json["title"] as? String == "milk", "RFC 6902: \(patched.text)")
        let failedTest = call(harness, "/todos/26", .patch, #"[{"op": "test", "path": "/done", "value": false}]"#,
                              contentType: "application/json-patch+json", session: "t1")
        #expect(failedTest.status == 409, "a failed test op applies nothing: \(failedTest.text)")
        let plain = call(harness, "/todos/26", .patch, "done", contentType: "text/plain", session: "t1")
        #expect(plain.status == 415 && plain.text.contains("merge-patch"), "a patch of no known type: \(plain.status) \(plain.text)")

        #expect(call(harness, "/todos/26", .delete, session: "t1").status == 204)
        let gone = call(harness, "/todos/26", session: "t1")
        #expect(gone.status == 404 && gone.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(gone.text)")
        #expect(call(harness, "/todos/26", .delete, session: "t1").status == 404)
    }

    /// A list filters by a field's value and pages in both styles (page/per_page and limit/offset),
    /// with the total in a header or an envelope.
    @Test func aListFiltersByFieldAndPagesInBothStyles() throws {
        let stubs = try Self.stubs()
        let harness = try EngineHarness(stubs)
        let all = call(harness, "/todos")
        #expect(array(all).count == 25 && all.header("X-Total-Count") == "25")
        let done = call(harness, "/todos?done=true")
        #expect(array(done).count == 12 && done.header("X-Total-Count") == "12", "\(done.text)")
        let page = call(harness, "/todos?page=2&per_page=5")
        #expect(array(page).map { $0["id"] as? Int } == [6, 7, 8, 9, 10] && page.header("X-Total-Count") == "25", "\(page.text)")
        let window = call(harness, "/todos?done=false&limit=2&offset=3")
        #expect(array(window).map { $0["id"] as? Int } == [7, 9] && window.header("X-Total-Count") == "13", "\(window.text)")
        #expect(call(harness, "/todos?page=x").status == 400)

        _ = call(harness, "/notes", .post, #"{"text": "a"}"#)
        let envelope = call(harness, "/notes?page=1&per_page=10")
        let items = envelope.json["items"] as? [[String: Any]]
        #expect(items?.count == 1 && envelope.json["total"] as? Int == 1 && envelope.json["per_page"] as? Int == 10, "\(envelope.text)")
        #expect((items?.first?["id"] as? String)?.count == 36, "a UUID id: \(envelope.text)")
    }

    /// The manifest's `defaults.headers` reach a resource's answers as every route's (issue 42):
    /// they did not, so an app reading a header its API always sends broke on resources only.
    @Test func resourceAnswersCarryTheDefaultHeaders() throws {
        let stubs = try TempStubs(["stubd.yml": """
            defaults:
              headers: { X-Api-Version: "2", Cache-Control: no-store, Content-Type: text/plain }
            resources:
              - path: /todos
                items: [{ id: 1, title: one }]
            """])
        let harness = try EngineHarness(stubs)
        let list = call(harness, "/todos")
        let created = call(harness, "/todos", .post, #"{"title": "two"}"#)
        let missing = call(harness, "/todos/9")
        let deleted = call(harness, "/todos/1", .delete)
        let statuses: [Int] = [list.status, created.status, missing.status, deleted.status]
        #expect(statuses == [200, 201, 404, 204])
        for answer in [list, created, missing, deleted] {
            #expect(answer.header("X-Api-Version") == "2" && answer.header("Cache-Control") == "no-store", "\(answer.status): \(answer.headers)")
        }
        // The answer's own Content-Type wins (JSON, problem+json), and a 204 gets none from the defaults.
        #expect(list.header("Content-Type")?.hasPrefix("application/json") == true, "\(list.headers)")
        #expect(missing.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(missing.headers)")
        #expect(deleted.header("Content-Type") == nil, "\(deleted.headers)")
        #expect(created.header("Location") == "/todos/2")
    }

    /// A query name no item has (an app's API key on every request) filters nothing; once an item
    /// has the field, it filters.
    @Test func aQueryNameNoItemHasFiltersNothing() throws {
        let stubs = try Self.stubs()
        let harness = try EngineHarness(stubs)
        // An app that sends its API key on every request: no todo has an appid, so it is no filter.
        let all = call(harness, "/todos?appid=KEY")
        #expect(array(all).count == 25 && all.header("X-Total-Count") == "25", "\(all.text)")
        let titled = call(harness, "/todos?appid=KEY&title=todo 3")
        #expect(array(titled).map { $0["id"] as? Int } == [3] && titled.header("X-Total-Count") == "1", "\(titled.text)")
        // Both paging styles beside it.
        let page = call(harness, "/todos?appid=KEY&page=2&per_page=5")
        #expect(array(page).map { $0["id"] as? Int } == [6, 7, 8, 9, 10] && page.header("X-Total-Count") == "25", "\(page.text)")
        let window = call(harness, "/todos?APPID=KEY&done=false&limit=2&offset=3")
        #expect(array(window).map { $0["id"] as? Int } == [7, 9] && window.header("X-Total-Count") == "13", "\(window.text)")

        // Once one item has the field it filters, and the items without it do not match.
        _ = call(harness, "/todos", .post, #"{"title": "urgent", "priority": "high"}"#, session: "p")
        let high = call(harness, "/todos?priority=high&appid=KEY", session: "p")
        #expect(array(high).map { $0["title"] as? String } == ["urgent"] && high.header("X-Total-Count") == "1", "\(high.text)")
        #expect(array(call(harness, "/todos?priority=low", session: "p")).isEmpty)
    }

    /// Past maxItems or maxItemBytes, and for an id that is no path segment or already taken, a
    /// resource answers a problem.
    @Test func limitsAndBadIdsAreRefusedWithAProblem() throws {
        let stubs = try Self.stubs()
        let harness = try EngineHarness(stubs)
        for _ in 0..<3 { #expect(call(harness, "/notes", .post, #"{"t": 1}"#).status == 201) }
        let full = call(harness, "/notes", .post, #"{"t": 1}"#)
        #expect(full.status == 507 && full.text.contains("maxItems"), "\(full.text)")
        let big = call(harness, "/tags", .post, #"{"id": "x", "pad": "\#(String(repeating: "a", count: 70_000))"}"#)
        #expect(big.status == 413 && big.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(big.status) \(big.text)")
        let dots = call(harness, "/tags", .post, #"{"id": "a/../b"}"#)
        #expect(dots.status == 400 && dots.text.contains("path"), "\(dots.text)")
        let fine = call(harness, "/tags", .post, #"{"id": "swift"}"#)
        #expect(fine.status == 201 && fine.header("Location") == "/tags/swift")
        #expect(call(harness, "/tags", .post, #"{"id": "swift"}"#).status == 409)
        #expect(call(harness, "/tags", .post, #"{"name": "no id"}"#).status == 400)
    }
}

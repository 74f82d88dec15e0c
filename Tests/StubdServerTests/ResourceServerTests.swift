import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing

/// Resources (issue 42): a collection declared in stubd.yml, answered per session by `stubd serve`
/// over its socket, as a client of a CRUD API sees it.
@Suite struct ResourceServerTests {
    static let manifest = """
        resources:
          - path: /todos
            seed: todos.json
          - path: /users/{userId}/todos
            name: userTodos
            items:
              - { id: 1, userId: 1, title: "one's" }
              - { id: 1, userId: 2, title: "two's" }
          - path: /notes
            total: envelope
            idStrategy: uuid
            maxItems: 3
            maxItemBytes: 200
          - path: /tags
            idStrategy: body
        """

    static func stubs() throws -> TempStubs {
        let seed = (1...25).map { #"{"id": \#($0), "title": "todo \#($0)", "done": \#($0 % 2 == 0)}"# }
        return try TempStubs(["stubd.yml": manifest, "__files/todos.json": "[" + seed.joined(separator: ",\n") + "]"])
    }

    private func call(_ server: ServeProcess, _ path: String, _ method: String = "GET", _ body: String? = nil,
                      headers: [String: String] = [:]) async throws -> HTTPResult {
        try await Self.call(server.baseURL, path, method, body, headers: headers)
    }

    private static func call(_ base: URL, _ path: String, _ method: String = "GET", _ body: String? = nil,
                             headers: [String: String] = [:]) async throws -> HTTPResult {
        var headers = headers
        if body != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return try await http(URL(string: base.absoluteString + path)!, method: method, body: body, headers: headers)
    }

    private func array(_ r: HTTPResult) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: r.body)) as? [[String: Any]] ?? []
    }

    @Test func createReadReplacePatchAndDeleteAnItem() async throws {
        let stubs = try Self.stubs()
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let created = try await call(server, "/__s/t1/todos", "POST", #"{"title": "buy milk"}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.header("Location") == "/__s/t1/todos/26", "increment: one past the seed's largest id")
        #expect(created.json["id"] as? Int == 26)

        let read = try await call(server, "/__s/t1/todos/26")
        #expect(read.status == 200 && read.json["title"] as? String == "buy milk", "\(read.text)")

        let replaced = try await call(server, "/__s/t1/todos/26", "PUT", #"{"title": "buy oat milk", "done": false}"#)
        #expect(replaced.status == 200 && replaced.json["id"] as? Int == 26 && replaced.json["title"] as? String == "buy oat milk", "\(replaced.text)")

        let merged = try await call(server, "/__s/t1/todos/26", "PATCH", #"{"done": true, "title": null}"#,
                                    headers: ["Content-Type": "application/merge-patch+json"])
        #expect(merged.status == 200 && merged.json["done"] as? Bool == true && merged.json["title"] == nil, "RFC 7396: null removes: \(merged.text)")

        let patched = try await call(server, "/__s/t1/todos/26", "PATCH",
                                     #"[{"op": "test", "path": "/done", "value": true}, {"op": "add", "path": "/title", "value": "milk"}]"#,
                                     headers: ["Content-Type": "application/json-patch+json"])
        #expect(patched.status == 200 && patched.json["title"] as? String == "milk", "RFC 6902: \(patched.text)")
        let failedTest = try await call(server, "/__s/t1/todos/26", "PATCH", #"[{"op": "test", "path": "/done", "value": false}]"#,
                                        headers: ["Content-Type": "application/json-patch+json"])
        #expect(failedTest.status == 409, "a failed test op applies nothing: \(failedTest.text)")
        let plain = try await call(server, "/__s/t1/todos/26", "PATCH", "done", headers: ["Content-Type": "text/plain"])
        #expect(plain.status == 415 && plain.text.contains("merge-patch"), "a patch of no known type: \(plain.status) \(plain.text)")

        #expect(try await call(server, "/__s/t1/todos/26", "DELETE").status == 204)
        let gone = try await call(server, "/__s/t1/todos/26")
        #expect(gone.status == 404 && gone.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(gone.text)")
        #expect(try await call(server, "/__s/t1/todos/26", "DELETE").status == 404)
    }

    @Test func aListFiltersByFieldAndPagesInBothStyles() async throws {
        let stubs = try Self.stubs()
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let all = try await call(server, "/todos")
        #expect(array(all).count == 25 && all.header("X-Total-Count") == "25")
        let done = try await call(server, "/todos?done=true")
        #expect(array(done).count == 12 && done.header("X-Total-Count") == "12", "\(done.text)")
        let page = try await call(server, "/todos?page=2&per_page=5")
        #expect(array(page).map { $0["id"] as? Int } == [6, 7, 8, 9, 10] && page.header("X-Total-Count") == "25", "\(page.text)")
        let window = try await call(server, "/todos?done=false&limit=2&offset=3")
        #expect(array(window).map { $0["id"] as? Int } == [7, 9] && window.header("X-Total-Count") == "13", "\(window.text)")
        #expect(try await call(server, "/todos?page=x").status == 400)

        _ = try await call(server, "/notes", "POST", #"{"text": "a"}"#)
        let envelope = try await call(server, "/notes?page=1&per_page=10")
        let items = envelope.json["items"] as? [[String: Any]]
        #expect(items?.count == 1 && envelope.json["total"] as? Int == 1 && envelope.json["per_page"] as? Int == 10, "\(envelope.text)")
        #expect((items?.first?["id"] as? String)?.count == 36, "a UUID id: \(envelope.text)")
    }

    /// The manifest's `defaults.headers` reach a resource's answers as every route's (issue 42):
    /// they did not, so an app reading a header its API always sends broke on resources only.
    @Test func resourceAnswersCarryTheDefaultHeaders() async throws {
        let stubs = try TempStubs(["stubd.yml": """
            defaults:
              headers: { X-Api-Version: "2", Cache-Control: no-store, Content-Type: text/plain }
            resources:
              - path: /todos
                items: [{ id: 1, title: one }]
            """])
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let list = try await call(server, "/todos")
        let created = try await call(server, "/todos", "POST", #"{"title": "two"}"#)
        let missing = try await call(server, "/todos/9")
        let deleted = try await call(server, "/todos/1", "DELETE")
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

    @Test func aQueryNameNoItemHasFiltersNothing() async throws {
        let stubs = try Self.stubs()
        let server = try ServeProcess(["--stubs", stubs.url.path])
        // An app that sends its API key on every request: no todo has an appid, so it is no filter.
        let all = try await call(server, "/todos?appid=KEY")
        #expect(array(all).count == 25 && all.header("X-Total-Count") == "25", "\(all.text)")
        let titled = try await call(server, "/todos?appid=KEY&title=todo%203")
        #expect(array(titled).map { $0["id"] as? Int } == [3] && titled.header("X-Total-Count") == "1", "\(titled.text)")
        // Both paging styles beside it.
        let page = try await call(server, "/todos?appid=KEY&page=2&per_page=5")
        #expect(array(page).map { $0["id"] as? Int } == [6, 7, 8, 9, 10] && page.header("X-Total-Count") == "25", "\(page.text)")
        let window = try await call(server, "/todos?APPID=KEY&done=false&limit=2&offset=3")
        #expect(array(window).map { $0["id"] as? Int } == [7, 9] && window.header("X-Total-Count") == "13", "\(window.text)")

        // Once one item has the field it filters, and the items without it do not match.
        _ = try await call(server, "/__s/p/todos", "POST", #"{"title": "urgent", "priority": "high"}"#)
        let high = try await call(server, "/__s/p/todos?priority=high&appid=KEY")
        #expect(array(high).map { $0["title"] as? String } == ["urgent"] && high.header("X-Total-Count") == "1", "\(high.text)")
        #expect(array(try await call(server, "/__s/p/todos?priority=low")).isEmpty)
    }

    @Test func twoSessionsSeeOnlyTheirOwnItemsAndAResetRestoresTheSeed() async throws {
        let stubs = try Self.stubs()
        let server = try ServeProcess(["--stubs", stubs.url.path])
        _ = try await call(server, "/__s/a/todos", "POST", #"{"title": "a's"}"#)
        #expect(try await call(server, "/__s/b/todos/5", "DELETE").status == 204)
        #expect(try await call(server, "/__s/a/todos").header("X-Total-Count") == "26")
        #expect(try await call(server, "/__s/b/todos").header("X-Total-Count") == "24")
        #expect(try await call(server, "/__s/b/todos/26").status == 404, "a's item is not b's")
        #expect(try await call(server, "/__s/a/todos/5").status == 200, "b's delete is not a's")
        #expect(try await call(server, "/__stubd/reset?session=a", "POST", "{}").status == 200)
        #expect(try await call(server, "/__s/a/todos").header("X-Total-Count") == "25", "reset: the seed again")

        // Nested: each parent its own items, stamped with the parent's id.
        let two = try await call(server, "/users/2/todos")
        #expect(array(two).map { $0["title"] as? String } == ["two's"], "\(two.text)")
        let made = try await call(server, "/users/2/todos", "POST", #"{"title": "more"}"#)
        #expect(made.status == 201 && made.json["userId"] as? Int == 2 && made.header("Location") == "/users/2/todos/2", "\(made.text)")
        #expect(try await call(server, "/users/1/todos/2").status == 404)

        // Hits and the journal count resource operations as routes.
        let hits = try await call(server, "/__stubd/hits?route=userTodos.create")
        #expect(hits.json["hits"] as? Int == 1, "\(hits.text)")
        let journal = try await call(server, "/__stubd/requests?limit=10")
        #expect(journal.text.contains(#""route":"userTodos.create""#) || journal.text.contains(#""route" : "userTodos.create""#), "\(journal.text)")
        let coverage = try await call(server, "/__stubd/coverage")
        let routes = coverage.json["routes"] as? [[String: Any]] ?? []
        #expect(routes.first { $0["route"] as? String == "todos.create" }?["hits"] as? Int == 1, "a's create, counted server-wide: \(coverage.text.prefix(400))")
    }

    @Test func concurrentWritesToOneSessionLoseNothing() async throws {
        let stubs = try Self.stubs()
        let server = try ServeProcess(["--stubs", stubs.url.path, "--threads", "8"])
        let base = server.baseURL
        try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<64 {
                group.addTask { try await Self.call(base, "/__s/c/todos", "POST", #"{"title": "n\#(i)"}"#).status }
                group.addTask { try await Self.call(base, "/__s/c/todos/1", "PATCH", #"{"f\#(i)": true}"#).status }
            }
            for try await status in group { #expect(status == 201 || status == 200) }
        }
        let list = array(try await call(server, "/__s/c/todos?limit=1000"))
        #expect(list.count == 25 + 64)
        #expect(Set(list.compactMap { $0["id"] as? Int }).count == 25 + 64, "every create its own id")
        let one = try await call(server, "/__s/c/todos/1")
        #expect((0..<64).allSatisfy { one.json["f\($0)"] as? Bool == true }, "every patch kept: \(one.text)")
    }

    @Test func limitsAndBadIdsAreRefusedWithAProblem() async throws {
        let stubs = try Self.stubs()
        let server = try ServeProcess(["--stubs", stubs.url.path])
        for _ in 0..<3 { #expect(try await call(server, "/notes", "POST", #"{"t": 1}"#).status == 201) }
        let full = try await call(server, "/notes", "POST", #"{"t": 1}"#)
        #expect(full.status == 507 && full.text.contains("maxItems"), "\(full.text)")
        let big = try await call(server, "/tags", "POST", #"{"id": "x", "pad": "\#(String(repeating: "a", count: 70_000))"}"#)
        #expect(big.status == 413 && big.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(big.status) \(big.text)")
        let dots = try await call(server, "/tags", "POST", #"{"id": "a/../b"}"#)
        #expect(dots.status == 400 && dots.text.contains("path"), "\(dots.text)")
        let fine = try await call(server, "/tags", "POST", #"{"id": "swift"}"#)
        #expect(fine.status == 201 && fine.header("Location") == "/tags/swift")
        #expect(try await call(server, "/tags", "POST", #"{"id": "swift"}"#).status == 409)
        #expect(try await call(server, "/tags", "POST", #"{"name": "no id"}"#).status == 400)
    }

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

    struct Todo: Codable, Equatable {
        var id: Int
        var title: String
    }

    @Test func theSwiftClientReadsAndSeedsASessionsItems() async throws {
        let stubs = try Self.stubs()
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let session = StubdClient(baseURL: server.baseURL).session("swift")
        let todos = session.resource("todos")
        #expect(try await todos.count() == 25)
        try await todos.seed([Todo(id: 7, title: "only this")])
        #expect(try await todos.items(as: Todo.self) == [Todo(id: 7, title: "only this")])
        let listed = try await call(server, "/__s/swift/todos")
        #expect(array(listed).count == 1 && listed.header("X-Total-Count") == "1", "the seeded items answer: \(listed.text)")
        #expect(try await call(server, "/__s/swift/todos", "POST", #"{"title": "next"}"#).json["id"] as? Int == 8)
        #expect(try await StubdClient(baseURL: server.baseURL).resource("todos").count() == 25, "the default session keeps the seed")
        await #expect(throws: StubdError.self) { try await session.resource("nope").count() }
        let bad = try await call(server, "/__s/swift/__stubd/resources/todos", "PUT", #"[{"title": "no id"}]"#)
        #expect(bad.status == 400 && bad.text.contains("'id'"), "\(bad.text)")
        try await session.reset()
        #expect(try await todos.count() == 25, "a reset brings back the seed")
    }

    /// A real client: Python's requests creates, lists, pages, patches and deletes.
    @Test func pythonRequestsDrivesACollection() async throws {
        try requirePython(modules: "requests")
        let stubs = try Self.stubs()
        let server = try ServeProcess(["--stubs", stubs.url.path])
        let script = """
            import requests, sys
            base = sys.argv[1] + "/__s/py"
            made = requests.post(base + "/todos", json={"title": "from python"})
            assert made.status_code == 201, made.text
            url = sys.argv[1] + made.headers["Location"]
            page = requests.get(base + "/todos", params={"page": 6, "per_page": 5})
            assert [t["id"] for t in page.json()] == [26] and page.headers["X-Total-Count"] == "26", page.text
            patched = requests.patch(url, json={"done": True})
            assert patched.json()["done"] is True and patched.json()["title"] == "from python", patched.text
            assert requests.delete(url).status_code == 204
            gone = requests.get(url)
            assert gone.status_code == 404 and gone.headers["Content-Type"].startswith("application/problem+json")
            print("ok")
            """
        let r = try run(testPython, ["-c", script, server.baseURL.absoluteString])
        #expect(r.status == 0 && r.output == "ok\n", "\(r.output) \(r.error)")
    }
}

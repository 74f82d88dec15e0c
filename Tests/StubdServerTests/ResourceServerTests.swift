import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing

/// Resources (issue 42): a collection declared in stubd.yml, answered per session by `stubd serve`
/// over its socket, as a client of a CRUD API sees it.
/// An item's life, lists, filters, pages, limits and default headers, with no socket: ResourceAnswerTests
/// in StubdCoreTests; sessions' own items and resets: ResourceSessionAnswerTests.
/// A seed file's problems under `check`, with no server: ResourceSeedCheckTests.
@Suite struct ResourceServerTests {
    static let manifest = ResourceStubs.manifest

    static func stubs() throws -> TempStubs { try ResourceStubs.stubs() }

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

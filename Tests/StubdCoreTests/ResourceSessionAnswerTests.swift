import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// Resources (issue 42) per session: each session's items its own, a reset bringing back the seed,
/// nested collections stamped with their parent's id, and hits, the journal and coverage counting
/// resource operations as routes. What the engine keeps, through `EngineHarness` (which routes
/// `/__s/ID/…` and `?session=` as the front does) with no socket. Moved from ResourceServerTests
/// (StubdServerTests), which keeps concurrent writes on 8 threads, StubdClient and Python's requests.
@Suite struct ResourceSessionAnswerTests {
    /// A body goes as `application/json`, as the server suite's requests sent it.
    private func call(_ server: EngineHarness, _ target: String, _ method: String = "GET", _ body: String? = nil) -> EngineAnswer {
        server.http(target, method: method, body: body, headers: body == nil ? [:] : ["Content-Type": "application/json"])
    }

    private func array(_ r: EngineAnswer) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: r.body)) as? [[String: Any]] ?? []
    }

    @Test func twoSessionsSeeOnlyTheirOwnItemsAndAResetRestoresTheSeed() throws {
        let server = try EngineHarness(try ResourceStubs.stubs())
        _ = call(server, "/__s/a/todos", "POST", #"{"title": "a's"}"#)
        #expect(call(server, "/__s/b/todos/5", "DELETE").status == 204)
        #expect(call(server, "/__s/a/todos").header("X-Total-Count") == "26")
        #expect(call(server, "/__s/b/todos").header("X-Total-Count") == "24")
        #expect(call(server, "/__s/b/todos/26").status == 404, "a's item is not b's")
        #expect(call(server, "/__s/a/todos/5").status == 200, "b's delete is not a's")
        #expect(call(server, "/__stubd/reset?session=a", "POST", "{}").status == 200)
        #expect(call(server, "/__s/a/todos").header("X-Total-Count") == "25", "reset: the seed again")

        // Nested: each parent its own items, stamped with the parent's id.
        let two = call(server, "/users/2/todos")
        #expect(array(two).map { $0["title"] as? String } == ["two's"], "\(two.text)")
        let made = call(server, "/users/2/todos", "POST", #"{"title": "more"}"#)
        #expect(made.status == 201 && made.json["userId"] as? Int == 2 && made.header("Location") == "/users/2/todos/2", "\(made.text)")
        #expect(call(server, "/users/1/todos/2").status == 404)

        // Hits and the journal count resource operations as routes.
        let hits = call(server, "/__stubd/hits?route=userTodos.create")
        #expect(hits.json["hits"] as? Int == 1, "\(hits.text)")
        let journal = call(server, "/__stubd/requests?limit=10")
        #expect(journal.text.contains(#""route":"userTodos.create""#) || journal.text.contains(#""route" : "userTodos.create""#), "\(journal.text)")
        let coverage = call(server, "/__stubd/coverage")
        let routes = coverage.json["routes"] as? [[String: Any]] ?? []
        #expect(routes.first { $0["route"] as? String == "todos.create" }?["hits"] as? Int == 1, "a's create, counted server-wide: \(coverage.text.prefix(400))")
    }
}

import Foundation
import HTTPTypes
import Synchronization
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

@Suite struct EngineTests {
    /// Sessions charge a route's only fixed-key quota through `SoleQuota`; a session built without
    /// the shortcut takes the general loop. The same calls at the same times must get the same answers.
    @Test func theSoleQuotaShortcutAnswersAsTheGeneralPathDoes() throws {
        let stubs = try TempStubs([
            "weather/now.json": "{}",
            "stubd.yml": """
            quotas:
              - { name: weather, routes: ["GET /weather/**"], limits: ["3/minute", "7/hour"] }
            clock: { virtual: "2016-10-11T14:59:50Z" }
            """,
        ])
        let engine = StubEngine(catalog: try stubs.load())
        let route = try #require(engine.catalog.route("GET", "/weather/now.json"))
        let shortcut = engine.defaultSession
        #expect(shortcut.state(for: route, generation: engine.catalog.generation).soleQuota != nil,
                "the shortcut is not taken, so this test compares nothing")
        let general = SessionState(id: "general", clock: engine.catalog.clock, journalCapacity: 10, takesShortcuts: false)
        func answer(_ session: SessionState) -> (status: Int, headers: [String]) {
            let outcome = engine.respond(to: RequestHead(method: .get, path: "/weather/now.json"), in: session)
            switch outcome.answer {
            case .canned(_, let extra): return (outcome.status.code, extra.list.map { "\($0.name): \($0.value)" })
            case .generated(let g): return (outcome.status.code, g.headers.map { "\($0.name): \($0.value)" } + [String(decoding: g.body, as: UTF8.self)])
            }
        }
        var statuses: [Int] = []
        for step in [0, 0, 0, 0, 5, 6, 0, 30, 0, 0, 0, 0, 61, 0, 0, 3600, 0] as [Double] {
            try shortcut.clock.advance(by: step)
            try general.clock.advance(by: step)
            let (a, b) = (answer(shortcut), answer(general))
            #expect(a.status == b.status && a.headers == b.headers, "after \(step) s: \(a) against \(b)")
            statuses.append(a.status)
        }
        #expect(statuses.filter { $0 == 429 }.count >= 4, "the calls should run into both limits: \(statuses)")
        #expect(shortcut.hits(for: "GET /weather/now.json") == statuses.count)
    }

    @Test func sequencesServeInOrderAndRepeatTheLast() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - name: flaky
                request: { path: /flaky }
                responses: [{ status: 503 }, { status: 503 }, { status: 200 }]
              - name: cycle
                request: { path: /cycle }
                cycle: true
                responses: [{ status: 200 }, { status: 201 }]
              - name: twice
                request: { path: /limited }
                times: 2
                response: { status: 500 }
              - name: after
                request: { path: /limited }
                priority: 9
                response: { status: 200 }
            """])
        let engine = StubEngine(catalog: try stubs.load())
        let s = engine.defaultSession
        func status(_ path: String, _ session: SessionState? = nil) -> Int {
            engine.respond(to: RequestHead(method: .get, path: path), in: session ?? s).status.code
        }
        #expect((0..<5).map { _ in status("/flaky") } == [503, 503, 200, 200, 200])
        #expect((0..<4).map { _ in status("/cycle") } == [200, 201, 200, 201])
        #expect((0..<4).map { _ in status("/limited") } == [500, 500, 200, 200])
        // Another session starts from the beginning.
        #expect(status("/flaky", engine.session("t1")) == 503)
        engine.reset(s)
        #expect(status("/flaky") == 503)
    }

    @Test func hitsSurviveAReloadOfUnchangedRoutes() throws {
        let stubs = try TempStubs(["a.json": "{}", "b.json": "{}"])
        let engine = StubEngine(catalog: try stubs.load())
        for _ in 0..<3 { _ = engine.respond(to: RequestHead(method: .get, path: "/a.json"), in: engine.defaultSession) }
        try stubs.write("c.json", "{}")
        engine.install(try stubs.load())
        #expect(engine.defaultSession.hits(for: "GET /a.json") == 3)
        #expect(engine.catalog.routes.count == 3)
    }

    /// A reload that changes only how a quota answers keeps its counts, and answers the new way,
    /// in the default session (the `SoleQuota` shortcut) and in a named one (the general path).
    @Test func aReloadedQuotaKeepsItsCountsAndAnswersTheNewWay() throws {
        func manifest(_ profile: String) -> String {
            "quotas:\n  - { name: weather, routes: [\"GET /w/**\"], limits: [\"1/day\"], exceeded: { profile: \(profile) } }\n"
        }
        let stubs = try TempStubs(["w/now.json": "{}", "stubd.yml": manifest("ietf")])
        let engine = StubEngine(catalog: try stubs.load())
        let sessions = [engine.defaultSession, engine.session("named")]
        func status(_ session: SessionState) -> Int { engine.respond(to: RequestHead(method: .get, path: "/w/now.json"), in: session).status.code }
        #expect(sessions.map(status) == [200, 200])
        #expect(sessions.map(status) == [429, 429])
        try stubs.write("stubd.yml", manifest("github"))
        engine.install(try stubs.load())
        // Still spent (the counts survived), and now refused as GitHub does.
        #expect(sessions.map(status) == [403, 403])
    }

    @Test func hitsCountByRoutePatternAndConcretePath() throws {
        let engine = StubEngine(catalog: try TempStubs(["api/{key}/x.json": "{}"]).load())
        for key in ["A", "A", "B"] { _ = engine.respond(to: RequestHead(method: .get, path: "/api/\(key)/x.json"), in: engine.defaultSession) }
        let s = engine.defaultSession
        #expect(s.hits(for: "GET /api/{key}/x.json") == 3)
        #expect(s.hits(for: "GET /api/A/x.json") == 2)
        #expect(s.hits(for: "GET /api/{key}/**") == 3)
        #expect(s.hits(for: "GET /api/B/x.json") == 1)
        _ = engine.respond(to: RequestHead(method: .head, path: "/api/A/x.json"), in: s)
        #expect(s.hits(for: "/api/A/x.json") == 3, "a path without a method counts every method")
        #expect(s.hits(for: "GET /api/A/x.json") == 2, "a concrete path counts its own method")
        #expect(s.hits(for: "GET /api/{key}/**") == 4, "a GET pattern covers HEAD, as GET routes answer it")
    }

    @Test func anUnmatchedRequestNamesTheNearestRoute() throws {
        let engine = StubEngine(catalog: try TempStubs(["api/{key}/conditions/q/CA/San_Francisco.json": "{}"]).load())
        let outcome = engine.respond(to: RequestHead(method: .get, path: "/api/KEY/condition/q/CA/San_Francisco.json"), in: engine.defaultSession)
        #expect(outcome.status == 404)
        guard case .generated(let g) = outcome.answer else { Issue.record("not generated"); return }
        let text = String(decoding: g.body, as: UTF8.self)
        #expect(text.contains("path segment 3 differs: 'condition' here, 'conditions' in the route"))
    }

    /// `serve --proxy` matches a request once: a miss comes back nil with nothing counted or
    /// journaled (the request goes on to the real API), a hit is answered, counted and journaled.
    @Test func answerPassingMissesPassesThemWithoutCountingThem() throws {
        let stubs = try TempStubs(["a.json": "{}"])
        let engine = StubEngine(catalog: try stubs.load())
        let session = engine.defaultSession
        #expect(engine.answer(RequestHead(method: .get, path: "/missing"), session: session.id, passingMisses: true) == nil)
        #expect(engine.answer(RequestHead(method: .delete, path: "/a.json"), session: session.id, passingMisses: true) == nil)
        #expect(session.unmatched.load(ordering: .relaxed) == 0)
        #expect(session.journal.recent(limit: 0).total == 0)
        let hit = try #require(engine.answer(RequestHead(method: .get, path: "/a.json"), session: session.id, passingMisses: true))
        #expect(hit.status == 200)
        #expect(session.hits(for: "GET /a.json") == 1)
        #expect(session.journal.recent(limit: 0).total == 1)
    }
}

import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// A resource's items count against the sessions' storage budget as journal bodies and WebSocket
/// messages do (issue 57 item 5): `maxItems` items of `maxItemBytes` per session, times the sessions
/// clients may name, was memory nothing bounded.
@Suite struct ResourceStorageBudgetTests {
    static let item = #"{"text": ""# + String(repeating: "x", count: 8 * 1024) + #""}"#

    static func engine(budget: Int) throws -> (StubEngine, TempStubs) {
        let stubs = try TempStubs(["stubd.yml": """
            resources:
              - { path: /notes, maxItems: 1000, items: [{ id: 1, text: "seed" }] }
            """])
        return (StubEngine(catalog: try stubs.load(), journalCapacity: 1, maxSessions: 10_000, sessionStorage: budget), stubs)
    }

    static func call(_ engine: StubEngine, _ session: SessionState, _ method: HTTPRequest.Method, _ path: String,
                     _ body: String? = nil) -> (status: Int, text: String) {
        let head = RequestHead(method: method, path: path,
                               headers: fields(["Host": "127.0.0.1", "Content-Type": "application/json"]), body: Data((body ?? "").utf8))
        let outcome = engine.respond(to: head, in: session)
        guard case .generated(let answer) = outcome.answer else { return (outcome.status.code, "") }
        return (outcome.status.code, String(decoding: answer.body, as: UTF8.self))
    }

    /// What a session's items take as JSON, beyond the seed.
    static func itemBytes(_ engine: StubEngine, _ session: SessionState) -> Int {
        let resource = engine.catalog.resources.values.first!
        return session.resourceStore(for: resource).allItems().reduce(0) { $0 + $1.serialized.utf8.count } - #"{"id":1,"text":"seed"}"#.utf8.count
    }

    /// 1,000 sessions each adding ten 8 KiB items against a 1 MiB budget: without the budget they kept
    /// 80 MiB; with it, the total stays within it and the oldest sessions gave theirs up first.
    @Test func aThousandSessionsFillingAResourceStayWithinTheBudget() throws {
        let budget = 1 << 20
        let (engine, _) = try Self.engine(budget: budget)
        var most = 0
        for n in 0..<1_000 {
            let session = engine.session("s\(n)")
            for _ in 0..<10 { _ = Self.call(engine, session, .post, "/notes", Self.item) }
            most = max(most, engine.sessions.storage.bytesUsed)
        }
        let kept = engine.sessions.sessionList.reduce(0) { $0 + Self.itemBytes(engine, $1) }
        #expect(most <= budget, "the total reached \(most) bytes, past the budget of \(budget)")
        #expect(kept <= budget, "sessions keep \(kept) bytes of items")
        #expect(Self.itemBytes(engine, engine.session("s999")) >= 10 * 8 * 1024, "the newest session lost its items")
        #expect(engine.sessions.sessionList.contains { $0.id == "s0" } == false, "the oldest session was not given up first")
        print("ResourceStorageBudgetTests: 1,000 sessions x 10 x 8 KiB items under a 1 MiB budget: \(kept) bytes kept, total at most \(most)")
    }

    /// One session alone past the budget: its next item gets 507 naming the budget, and what it had
    /// is handed back by a delete, a replacing PUT and a reset.
    @Test func anItemThatCannotFitGets507AndWhatItemsHeldIsHandedBack() throws {
        let (engine, _) = try Self.engine(budget: 100 * 1024)
        let session = engine.session("alone")
        var statuses: [Int] = []
        for _ in 0..<20 { statuses.append(Self.call(engine, session, .post, "/notes", Self.item).status) }
        #expect(statuses.contains(507), "\(statuses)")
        let refused = Self.call(engine, session, .post, "/notes", Self.item)
        #expect(refused.status == 507 && refused.text.contains("--session-storage"), "\(refused.status) \(refused.text)")
        let full = engine.sessions.storage.bytesUsed
        #expect(Self.call(engine, session, .delete, "/notes/2").status == 204)
        #expect(engine.sessions.storage.bytesUsed <= full - 8 * 1024, "a delete hands its item's bytes back")
        #expect(Self.call(engine, session, .patch, "/notes/3", #"{"text": "small"}"#).status == 200)
        #expect(engine.sessions.storage.bytesUsed <= full - 16 * 1024, "a patch that shrinks an item hands back the difference")
        engine.reset(session)
        #expect(engine.sessions.storage.bytesUsed < 4 * 1024, "a reset hands every item back: \(engine.sessions.storage.bytesUsed)")
        // A reset named session starts afresh under its name.
        #expect(Self.call(engine, engine.session("alone"), .post, "/notes", Self.item).status == 201)
    }
}

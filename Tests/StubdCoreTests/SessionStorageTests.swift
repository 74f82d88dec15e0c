import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// What sessions keep is bounded for the whole server (issue 57): clients choose session ids, so a
/// per-session bound times a thousand sessions was no bound. Past the budget the session unused
/// longest gives up what it kept; a write that does not fit even then gets a 507.
@Suite struct SessionStorageTests {
    static func engine(budget: Int, journal: Int = 10) throws -> (StubEngine, TempStubs) {
        let stubs = try TempStubs(["stubd.yml": """
            scenarios:
              order: { maxKeys: 100000 }
            routes:
              - request: { method: POST, path: "/orders/{id}/pay" }
                response: { status: 204 }
                scenario: order
                scenarioKey: { path: id }
                thenState: paid
              - request: { path: "/orders/{id}" }
                response: { status: 200 }
                scenario: order
                scenarioKey: { path: id }
                whenState: paid

            """])
        return (StubEngine(catalog: try stubs.load(), journalCapacity: journal, maxSessions: 10_000, sessionStorage: budget), stubs)
    }

    /// What a session keeps of what its WebSockets received, as a reader sees it.
    static func keptBytes(_ session: SessionState, route: String = "ws") -> Int {
        session.streams.route(route).received.reduce(0) { sum, message in
            switch message.payload {
            case .text(let text): sum + text.utf8.count
            case .binary(let bytes): sum + bytes.count
            }
        }
    }

    /// 1,000 sessions each filling a WebSocket route's retention (scaled down: 10 messages of 8 KiB,
    /// against a budget of 1 MiB): without the budget they kept 80 MiB together; with it, never more
    /// than the budget, the newest sessions keep everything and the oldest were given up first.
    @Test func athousandSessionsFillingTheirWebSocketsStayWithinTheBudget() throws {
        let budget = 1 << 20
        let (engine, _) = try Self.engine(budget: budget)
        let message = WebSocketPayload.text(String(repeating: "m", count: 8 * 1024))
        var most = 0
        for n in 0..<1_000 {
            let session = engine.session("s\(n)")
            for _ in 0..<12 { session.streams.received(message, at: Date(), route: "ws") }
            most = max(most, engine.sessions.storage.bytesUsed)
        }
        let kept = engine.sessions.sessionList.reduce(0) { $0 + Self.keptBytes($1) }
        #expect(kept <= budget, "sessions keep \(kept) bytes of WebSocket messages, past the budget of \(budget)")
        #expect(most <= budget, "the total reached \(most)")
        #expect(Self.keptBytes(engine.session("s999")) == 10 * 8 * 1024, "the newest session lost its messages")
        #expect(engine.sessions.sessionList.contains { $0.id == "s0" } == false, "the oldest session was not given up first")
        print("SessionStorageTests: 1,000 sessions × 10 × 8 KiB under a 1 MiB budget: \(kept) bytes kept, \(engine.sessions.count) sessions left, total at most \(most)")
    }

    /// The session used most recently keeps its data; the one unused longest goes first.
    @Test func theSessionUnusedLongestGivesUpFirst() throws {
        let (engine, _) = try Self.engine(budget: 240 * 1024)
        let message = WebSocketPayload.binary(Array(repeating: 1, count: 60 * 1024))
        for id in ["a", "b"] { engine.session(id).streams.received(message, at: Date(), route: "ws") }
        _ = engine.session("a")   // a request of session a: b is now the one unused longest
        Thread.sleep(forTimeInterval: 0.001)
        engine.session("c").streams.received(message, at: Date(), route: "ws")
        #expect(engine.sessions.sessionList.map(\.id).sorted() == ["", "a", "b", "c"])
        engine.session("c").streams.received(message, at: Date(), route: "ws")
        #expect(engine.sessions.sessionList.map(\.id).sorted() == ["", "a", "c"], "b was not the one to go")
        #expect(Self.keptBytes(engine.session("a")) == 60 * 1024)
        #expect(Self.keptBytes(engine.session("c")) == 120 * 1024)
    }

    /// One session alone past the budget: its scenario keys get a 507 naming the budget and the option.
    @Test func aWriteThatCannotFitEvenAloneGets507() throws {
        let (engine, _) = try Self.engine(budget: 20_000)
        let session = engine.session("alone")
        var statuses: [Int] = []
        for n in 0..<300 {
            statuses.append(engine.respond(to: RequestHead(method: .post, path: "/orders/\(n)/pay"), in: session).status.code)
        }
        let refused = try #require(statuses.firstIndex(of: 507), "no key was refused: \(Set(statuses))")
        #expect(refused > 100 && statuses[..<refused].allSatisfy { $0 == 204 })
        let outcome = engine.respond(to: RequestHead(method: .post, path: "/orders/x/pay"), in: session)
        guard case .generated(let answer) = outcome.answer else { Issue.record("no problem answer"); return }
        let detail = String(decoding: answer.body, as: UTF8.self)
        #expect(outcome.status.code == 507)
        #expect(detail.contains("storage budget of 20000 bytes") && detail.contains("--session-storage"), "\(detail)")
        #expect(engine.sessions.storage.bytesUsed <= 20_000)
        // The keys it holds still answer; a reset gives their room back.
        #expect(engine.respond(to: RequestHead(method: .get, path: "/orders/0"), in: session).status.code == 200)
        engine.sessions.reset(session)
        #expect(engine.sessions.storage.bytesUsed == 0)
    }

    /// A reset of the server dropped named sessions without emptying what their sockets hold: a
    /// socket still open kept its session's received messages (and the budget counted nothing).
    @Test func aResetFreesWhatOpenSocketsReceived() throws {
        let (engine, _) = try Self.engine(budget: 1 << 30)
        let session = engine.session("sockets")
        let traffic = session.streams      // as an open WebSocket holds it
        let streamJournal = session.streamJournal
        for n in 0..<10 {
            traffic.received(.text(String(repeating: "x", count: 64 * 1024)), at: Date(), route: "ws")
            streamJournal.record(.text("hello"), .received, at: Date(), connection: 1, index: n)
        }
        #expect(traffic.route("ws").received.count == 10)
        engine.sessions.reset(engine.defaultSession)
        #expect(traffic.route("ws").received.isEmpty, "the open socket's session still keeps what it received")
        #expect(traffic.route("ws").receivedTotal == 10)
        #expect(engine.sessions.storage.bytesUsed == 0)
        // And the dropped session keeps nothing more, while the next one under its id starts afresh.
        traffic.received(.text("late"), at: Date(), route: "ws")
        #expect(traffic.route("ws").received.isEmpty)
        engine.session("sockets").streams.received(.text("new"), at: Date(), route: "ws")
        #expect(engine.sessions.storage.bytesUsed > 0)
    }

    /// Journal bodies count too: 100 sessions journaling 64 KiB answers stay within the budget.
    @Test func journalBodiesCountAgainstTheBudget() throws {
        let budget = 2 << 20
        let (engine, _) = try Self.engine(budget: budget, journal: 1000)
        let body = Data(repeating: 0x61, count: 60 * 1024)
        for n in 0..<100 {
            let session = engine.session("j\(n)")
            for _ in 0..<10 {
                _ = engine.respond(to: RequestHead(method: .post, path: "/nowhere", body: body), in: session)
            }
            #expect(engine.sessions.storage.bytesUsed <= budget)
        }
        let kept = engine.sessions.sessionList.reduce(0) { sum, session in
            session.journal.recent(limit: 1000).entries.reduce(sum) { $0 + ($1.bodies?.bytes ?? 0) }
        }
        #expect(kept <= budget, "the journals keep \(kept) bytes of bodies, past the budget of \(budget)")
        let last = engine.session("j99").journal.recent(limit: 10).entries
        #expect(last.count == 10 && last.allSatisfy { $0.bodies?.dropped == false })
    }
    /// Sessions charging, evicting each other and being reset from several threads at once: no
    /// deadlock (a charge evicts while holding no session's lock), the total never ends past the
    /// budget, and once everything is reset nothing is left counted.
    @Test func concurrentChargesEvictionsAndResetsKeepTheCountExact() throws {
        let budget = 512 * 1024
        let (engine, _) = try Self.engine(budget: budget)
        let message = WebSocketPayload.text(String(repeating: "c", count: 4 * 1024))
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for n in 0..<150 {
                let session = engine.session("w\(worker)-\(n % 40)")
                session.streams.received(message, at: Date(), route: "ws")
                session.streamJournal.record(message, .received, at: Date(), connection: worker, index: n)
                _ = engine.respond(to: RequestHead(method: .post, path: "/orders/\(n)/pay", body: Data(count: 2048)), in: session)
                if n % 37 == 0 { engine.sessions.reset(session) }
            }
        }
        #expect(engine.sessions.storage.bytesUsed <= budget)
        engine.sessions.reset(engine.defaultSession)
        #expect(engine.sessions.storage.bytesUsed == 0)
    }
}

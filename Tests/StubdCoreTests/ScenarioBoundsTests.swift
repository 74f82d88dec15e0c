import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol

/// Scenarios cost by what is due, not by history (issue 57): a cycle of timed moves after a long jump
/// of the clock, and keys that are empty or huge.
@Suite struct ScenarioBoundsTests {
    static let manifest = """
        clock: { virtual: "2026-01-01T00:00:00Z" }
        scenarios:
          blink:
            moves:
              - { from: "on", after: 1s, to: "off" }
              - { from: "off", after: 1s, to: "on" }
        routes:
          - request: { method: PUT, path: "/lamps/{id}" }
            response: { status: 204 }
            scenario: blink
            scenarioKey: { path: id }
            thenState: "on"
          - request: { path: "/lamps/{id}" }
            response: { template: true, json: { state: "{{scenario 'blink' key=request.path.id}}" } }

        """

    private static func admin(_ engine: StubEngine, _ method: HTTPRequest.Method, _ call: String, _ body: String = "",
                              session: SessionState) throws -> GeneratedResponse {
        let endpoint = try #require(AdminEndpoint(method: method, call: call))
        guard case .response(let response) = AdminEndpoints(engine: engine).answer(endpoint, query: [], body: Data(body.utf8), session: session) else {
            Issue.record("\(call) did not answer at once")
            return GeneratedResponse(status: .internalServerError)
        }
        return response
    }

    /// 1,000 keys of a 2-second cycle, then the clock moved on 10^11 s: walked move by move (at most
    /// 10,000 a key) the read took seconds and left every key in the wrong state; by laps it takes
    /// what one lap costs, and the coverage counts every move.
    @Test func aCycleOfTimedMovesAfterAHugeJumpCostsOneLap() throws {
        let stubs = try TempStubs(["stubd.yml": Self.manifest])
        let engine = StubEngine(catalog: try stubs.load())
        let session = engine.session("cycle")
        for n in 1...1_000 {
            #expect(try Self.admin(engine, .put, "scenarios/blink", #"{"state": "on", "key": "\#(n)"}"#, session: session).status == 200)
        }
        try session.clock.advance(by: 1e11 + 1.5)
        let started = DispatchTime.now().uptimeNanoseconds
        let report = try Self.admin(engine, .get, "scenarios/blink", session: session)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        let keys = try #require(try JSONSerialization.jsonObject(with: report.body) as? [String: Any])["keys"] as? [String: String]
        // 5 * 10^10 laps of 2 s, then 1.5 s more: out of "on" into "off", half a second into it.
        #expect(keys?.count == 1_000 && Set(keys?.values ?? [:].values) == ["off"], "\(Array(keys ?? [:]).prefix(3))")
        #expect(elapsed < 1_000, "reading 1,000 keys after the jump took \(elapsed) ms")
        print("ScenarioBoundsTests: read of 1,000 cycling keys after a 10^11 s jump: \(elapsed) ms")
        let again = DispatchTime.now().uptimeNanoseconds
        _ = try Self.admin(engine, .get, "scenarios/blink", session: session)
        print("ScenarioBoundsTests: the next read: \(Double(DispatchTime.now().uptimeNanoseconds - again) / 1e6) ms")

        let counts = session.scenarios.counts(settling: engine.catalog.scenarioSteps, now: session.clock.now())
        let onToOff = ScenarioCounts.Move(from: "on", to: "off", after: 1)
        let offToOn = ScenarioCounts.Move(from: "off", to: "on", after: 1)
        #expect(counts.timesTaken("blink", onToOff) == 1_000 * 50_000_000_001)
        #expect(counts.timesTaken("blink", offToOn) == 1_000 * 50_000_000_000)
        // The clock moved on half a second more: one move each, not a lap.
        try session.clock.advance(by: 0.5)
        let moves = try #require(engine.catalog.scenarioSteps["blink"]).moves
        #expect(session.scenarios.state(of: "blink", key: "7", moves: moves, now: { session.clock.now() }) == "on")
    }

    @Test func anEmptyOrOverlongKeyIsRefusedWithWhatIsAllowed() throws {
        let stubs = try TempStubs(["stubd.yml": Self.manifest])
        let engine = StubEngine(catalog: try stubs.load())
        let session = engine.defaultSession
        let empty = try Self.admin(engine, .put, "scenarios/blink", #"{"state": "on", "key": ""}"#, session: session)
        #expect(empty.status == 400)
        #expect(String(decoding: empty.body, as: UTF8.self).contains("a key is 1 to 256 bytes"))
        let long = String(repeating: "k", count: 257)
        let tooLong = try Self.admin(engine, .put, "scenarios/blink", #"{"state": "on", "key": "\#(long)"}"#, session: session)
        #expect(tooLong.status == 400)
        #expect(String(decoding: tooLong.body, as: UTF8.self).contains("a key of 257 bytes"))
        #expect(try Self.admin(engine, .put, "scenarios/blink", #"{"state": "on", "key": "\#(long.dropLast())"}"#, session: session).status == 200)

        // A request's key: its path id, here 900 kB.
        let huge = String(repeating: "k", count: 900_000)
        let outcome = engine.respond(to: RequestHead(method: .put, path: "/lamps/\(huge)"), in: session)
        #expect(outcome.status.code == 400)
        guard case .generated(let answer) = outcome.answer else { Issue.record("no problem answer"); return }
        #expect(String(decoding: answer.body, as: UTF8.self).contains("a key of 900000 bytes (the request's path id)"))
        #expect(session.scenarios.keys(of: "blink").count == 1, "only the 256-byte key is kept")
    }
}

import Foundation
import StubdClient
import StubdCoreTestSupport
import StubdInProcess
import StubdProtocol
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sessions without a socket: parallel tests, each in a session of its own, see none of each
/// other's hits, quotas or clock; streams come event by event as a socket's do.
@Suite struct InProcessSessionTests {
    static let stubs = Locked<InProcessStubs?>(nil)

    /// One engine for the suite, as a test plan loads a folder once: each test takes a session of it.
    static func shared() throws -> InProcessStubs {
        try stubs.withLock { stubs in
            if let stubs { return stubs }
            let loaded = try WeatherStubs.load()
            stubs = loaded
            return loaded
        }
    }

    /// 100 tests at once, each in its own session of one engine: each sees its own hits, its own quota
    /// count, and its own clock (a session moving its clock lifts only its own 429).
    @Test(arguments: 0..<100) func parallelSessionsSeeNoneOfEachOther(_ n: Int) async throws {
        let mine = try Self.shared().sessionView("parallel-\(n)")
        let url = "http://api.example/api/KEY/conditions/q/CA/San_Francisco.json"
        let calls = n % 10 + 1
        for _ in 0..<calls { #expect(try await mine.urlSession.get(url).status == 200) }
        #expect(try await mine.hits("GET /api/{key}/conditions/q/CA/San_Francisco.json") == calls)
        if calls == 10 {
            #expect(try await mine.urlSession.get(url).status == 429)
            try await mine.advanceClock(by: .seconds(60))
            #expect(try await mine.urlSession.get(url).status == 200)
        }
    }

    /// Eight sessions started at once from one task group, as a parallel test plan does.
    @Test func eightParallelSessionsCountApart() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1...8 {
                group.addTask {
                    let view = stubs.sessionView("eight-\(n)")
                    for _ in 0..<n { _ = try await view.urlSession.get("http://x.example/cart") }
                }
            }
            try await group.waitForAll()
        }
        for n in 1...8 { #expect(try await stubs.session("eight-\(n)").hits("empty-cart") == n) }
        #expect(try await stubs.hits("empty-cart") == 0, "the default session saw none of them")
    }

    /// Two engines at once, same host: each answers only its own sessions' requests.
    @Test func twoFixturesAtOnceDoNotMix() async throws {
        let one = try WeatherStubs.load()
        let two = try WeatherStubs.load()
        defer { one.close(); two.close() }
        _ = try await one.urlSession.get("http://x.example/cart")
        _ = try await one.urlSession.get("http://x.example/cart")
        _ = try await two.urlSession.get("http://x.example/cart")
        #expect(try await one.hits("empty-cart") == 2)
        #expect(try await two.hits("empty-cart") == 1)
    }

    /// Server-sent events arrive one by one as they are due, on the session's virtual clock: the
    /// first at once, the second only when the test moves the clock past its delay.
    @Test func eventsArriveAsTheyAreDue() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        let reader = EventCollector()
        let session = URLSession(configuration: stubs.sessionConfiguration, delegate: reader, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        session.dataTask(with: URL(string: "http://live.example/live/scores")!).resume()
        #expect(try await reader.waitForEvents(1).map(\.data) == [#"{"home": 1}"#])
        try await Task.sleep(for: .milliseconds(200))
        #expect(reader.events.count == 1, "the second event waits for the virtual clock")
        try await stubs.advanceClock(by: .seconds(30))
        #expect(try await reader.waitForEvents(2).map(\.id) == ["1", "2"])
        #expect(try await reader.waitForEnd() == nil, "the stream ends cleanly after its last event")
    }
}

/// A `URLSessionDataDelegate` that reads server-sent events as their bytes come.
final class EventCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let state = Locked<(reader: ServerSentEventReader, events: [ServerSentEventReader.Event], ended: Bool, error: (any Error)?)>(
        (ServerSentEventReader(), [], false, nil))

    var events: [ServerSentEventReader.Event] { state.withLock { $0.events } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { state in state.events += state.reader.feed(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock { state in
            state.ended = true
            state.error = error
        }
    }

    func waitForEvents(_ count: Int, within seconds: Double = 5) async throws -> [ServerSentEventReader.Event] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while events.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return events
    }

    func waitForEnd(within seconds: Double = 5) async throws -> (any Error)? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !state.withLock({ $0.ended }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(state.withLock { $0.ended }, "the stream did not end")
        return state.withLock { $0.error }
    }
}

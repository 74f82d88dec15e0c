import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Quotes
import StubdClient
import StubdTesting
import Testing

/// The Swift Testing helpers. The same source runs three ways: the engine answering without a socket
/// (this package's dependency declares `traits: []`, as an iOS test bundle has it), an in-process
/// server (the default traits, on Linux and macOS), or a session on the `stubd serve` at STUBD_URL
/// (docker-compose). Every test talks through `server.urlSession`, which reaches the stubs each way.
@Suite struct QuoteClientTests {
    @Test func eachTestSeesOnlyItsOwnSessionsHits() async throws {
        try await withStubServer(stubs: stubsFolder) { server in
            let client = QuoteClient(baseURL: server.baseURL, session: server.urlSession)
            _ = try await client.quote(id: 3)
            _ = try await client.quote(id: 4)
            await expectHits(server, "GET /v1/quotes/{id}.json", 2)
        }
    }

    @Test func aCompletionBlockIsAwaited() async throws {
        try await withStubServer(stubs: stubsFolder) { server in
            let quote: Result<Quote, any Error> = try await awaitCompletion { done in
                QuoteClient(baseURL: server.baseURL, session: server.urlSession).quote(id: 7, completion: done)
            }
            #expect(try quote.get().id == 7)
            await confirmHits(server, "GET /v1/quotes/7.json", count: 1)
        }
    }

    /// The quota's fourth call in a minute gets 429; moving the session's virtual clock a minute, with
    /// no sleeping, lets the next one through.
    @Test(.stubs(stubsFolder)) func aQuota429IsLiftedByMovingTheClock() async throws {
        let server = try #require(StubsTrait.current)
        let url = server.baseURL.appendingPathComponent("v1/limited/quote")
        for _ in 1...3 { #expect(try await status(of: url, through: server) == 200) }
        #expect(try await status(of: url, through: server) == 429)
        try await server.advanceClock(by: .seconds(60))
        #expect(try await status(of: url, through: server) == 200)
    }

    /// A POST moves the scenario a step, and the next GET answers from the new state.
    @Test(.stubs(stubsFolder)) func aScenarioMovesAStep() async throws {
        let server = try #require(StubsTrait.current)
        let draft = server.baseURL.appendingPathComponent("v1/draft")
        #expect(try await body(of: draft, through: server).contains("draft"))
        var publish = URLRequest(url: server.baseURL.appendingPathComponent("v1/draft/publish"))
        publish.httpMethod = "POST"
        _ = try await server.urlSession.data(for: publish)
        #expect(try await body(of: draft, through: server).contains("published"))
        await expectScenarioState(server, "publishing", "published")
    }

    /// A dropped connection reaches the app as URLSession reports it on a real socket.
    @Test(.stubs(stubsFolder)) func aDroppedConnectionIsNetworkConnectionLost() async throws {
        let server = try #require(StubsTrait.current)
        do {
            _ = try await server.urlSession.data(from: server.baseURL.appendingPathComponent("v1/offline"))
            Issue.record("the request succeeded")
        } catch let error as URLError {
            #expect(error.code == .networkConnectionLost)
        }
    }

    /// Server-sent events come as they are due: the first at once, the second when the test moves the
    /// session's clock past its delay. A delegate reads them (`URLSession.bytes` is Apple's only).
    @Test(.stubs(stubsFolder)) func liveQuotesArriveAsTheyAreDue() async throws {
        let server = try #require(StubsTrait.current)
        let reader = LiveReader()
        let session = URLSession(configuration: server.sessionConfiguration, delegate: reader, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        session.dataTask(with: server.baseURL.appendingPathComponent("v1/live")).resume()
        #expect(await reader.events(atLeast: 1).map(\.id) == ["1"])
        try await Task.sleep(for: .milliseconds(200))
        #expect(reader.received.count == 1, "the second quote waits for the clock")
        try await server.advanceClock(by: .seconds(60))
        #expect(await reader.events(atLeast: 2).map(\.id) == ["1", "2"])
    }

    /// Eight sessions at once, each counting only its own calls.
    @Test func eightParallelSessionsCountApart() async throws {
        try await withStubServer(stubs: stubsFolder) { server in
            let prefix = UUID().uuidString
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 1...8 {
                    group.addTask {
                        let mine = server.session("\(prefix)-\(n)")
                        let client = QuoteClient(baseURL: mine.baseURL, session: mine.urlSession)
                        for _ in 0..<n { _ = try await client.quote(id: n) }
                    }
                }
                try await group.waitForAll()
            }
            for n in 1...8 { await expectHits(server.session("\(prefix)-\(n)"), "GET /v1/quotes/{id}.json", n) }
        }
    }
}

private func status(of url: URL, through server: any StubControl) async throws -> Int {
    let (_, response) = try await server.urlSession.data(from: url)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
}

private func body(of url: URL, through server: any StubControl) async throws -> String {
    String(decoding: try await server.urlSession.data(from: url).0, as: UTF8.self)
}

/// Reads server-sent events as their bytes come (`ServerSentEventReader` in a data delegate).
final class LiveReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var reader = ServerSentEventReader()
    private var events: [ServerSentEventReader.Event] = []

    var received: [ServerSentEventReader.Event] { lock.withLock { events } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { events += reader.feed(data) }
    }

    /// The events so far once there are `count`, or after five seconds.
    func events(atLeast count: Int) async -> [ServerSentEventReader.Event] {
        let deadline = ContinuousClock.now + .seconds(5)
        while received.count < count, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return received
    }
}

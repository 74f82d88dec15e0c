import Foundation
import Quotes
import StubdClient
import StubdTestingRemote
import Testing

/// The Swift Testing helpers without the server linked in, against the same `stubd serve`.
@Suite struct QuoteClientTests {
    @Test func eachTestSeesOnlyItsOwnSessionsHits() async throws {
        try await withStubServer(stubs: stubsFolder) { server in
            _ = try await QuoteClient(baseURL: server.baseURL).quote(id: 3)
            _ = try await QuoteClient(baseURL: server.baseURL).quote(id: 4)
            await expectHits(server, "GET /v1/quotes/{id}.json", 2)
        }
    }

    @Test func aCompletionBlockIsAwaited() async throws {
        try await withStubServer(stubs: stubsFolder) { server in
            let quote: Result<Quote, any Error> = try await awaitCompletion { done in
                QuoteClient(baseURL: server.baseURL).quote(id: 7, completion: done)
            }
            #expect(try quote.get().id == 7)
            await confirmHits(server, "GET /v1/quotes/7.json", count: 1)
        }
    }
}

import Foundation
import Quotes
import StubdClient
import StubdXCTest
import XCTest

/// The XCTest helpers: `startStubServer` answers without a socket (this package's `traits: []`), or
/// with an in-process server (the default traits), or takes a fresh session on the `stubd serve` at
/// STUBD_URL; the client goes through `server.urlSession`, which reaches the stubs each way.
final class QuoteClientXCTests: XCTestCase {
    func testTheQuoteComesFromTheStubsAndIsCountedOnce() async throws {
        let server = try await startStubServer(stubs: stubsFolder)
        let quote = try await QuoteClient(baseURL: server.baseURL, session: server.urlSession).quote(id: 7)
        XCTAssertEqual(quote.author, "Alan Kay")
        await XCTAssertHits(server, "GET /v1/quotes/7.json", 1)
    }

    func testACompletionBlockIsAwaitedThroughTheServersLongPoll() async throws {
        let server = try await startStubServer(stubs: stubsFolder)
        let hit = expectation(hits: 2, on: "GET /v1/quotes/{id}.json", of: server)
        let client = QuoteClient(baseURL: server.baseURL, session: server.urlSession)
        client.quote(id: 1) { _ in }
        client.quote(id: 2) { _ in }
        await fulfillment(of: [hit], timeout: 6)
    }
}

/// The Stubs folder beside this package's Tests/, which the `stubd serve` at STUBD_URL must serve.
let stubsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Stubs")

import Foundation
import Quotes
import StubdClient
import StubdXCTestRemote
import XCTest

/// The XCTest helpers without the server linked in: `startStubServer` takes a fresh session on the
/// `stubd serve` at STUBD_URL, and the assertions read its hit counts.
final class QuoteClientXCTests: XCTestCase {
    func testTheQuoteComesFromTheStubsAndIsCountedOnce() async throws {
        let server = try await startStubServer(stubs: stubsFolder)
        let quote = try await QuoteClient(baseURL: server.baseURL).quote(id: 7)
        XCTAssertEqual(quote.author, "Alan Kay")
        await XCTAssertHits(server, "GET /v1/quotes/7.json", 1)
    }

    func testACompletionBlockIsAwaitedThroughTheServersLongPoll() async throws {
        let server = try await startStubServer(stubs: stubsFolder)
        let hit = expectation(hits: 2, on: "GET /v1/quotes/{id}.json", of: server)
        let client = QuoteClient(baseURL: server.baseURL)
        client.quote(id: 1) { _ in }
        client.quote(id: 2) { _ in }
        await fulfillment(of: [hit], timeout: 6)
    }
}

/// The Stubs folder beside this package's Tests/, which the `stubd serve` at STUBD_URL must serve.
let stubsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Stubs")

import Foundation
import StubdClient
import StubdCoreTestSupport
import StubdInProcess
import StubdProtocol
import Testing

/// Issue 62 item 3: a hit assertion that finds more hits than expected on a route whose answer drops
/// the connection says why one call can count two (URLSession's retry on a reused connection).
@Suite struct HitAssertionFaultTests {
    @Test func moreHitsThanExpectedOnAFaultRouteSayWhy() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        _ = await failure { _ = try await stubs.urlSession.get("http://x.example/reset") }
        let message = try #require(try await StubFixture.hitMismatch(stubs, "reset", expected: 0))
        #expect(message.hasPrefix("Expected 0 hits on reset, but was 1 (its answer is connection_reset: URLSession retries a GET once"), "\(message)")
        #expect(try await stubs.adminClient.routes().routes.first { $0.name == "reset" }?.faults == ["connection_reset"])
    }

    @Test func anyOtherRouteSaysNothingOfIt() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        _ = try await stubs.urlSession.get("http://x.example/cart")
        let message = try #require(try await StubFixture.hitMismatch(stubs, "empty-cart", expected: 0))
        #expect(message == "Expected 0 hits on empty-cart, but was 1", "\(message)")
        #expect(try await stubs.adminClient.routes().routes.first { $0.name == "empty-cart" }?.faults == nil)
    }
}

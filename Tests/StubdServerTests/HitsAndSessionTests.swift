import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

/// `hits/wait`: a long-poll the server holds until the count is reached or the time is up, and the
/// client's failure that follows. What a session keeps apart and what the hit table counts, with no
/// socket: HitsAndSessionAnswerTests in StubdCoreTests.
@Suite struct HitsAndSessionTests {
    @Test func waitForHitsAnswersTheMomentTheCountIsReached() async throws {
        try await withServer(plainStubs) { server in
            async let waited = server.waitForHits("GET /plain/payload.json", count: 3, timeout: .seconds(5))
            // The poll is pending before the first hit, and still after two: the third answers it.
            let session = server.engine.defaultSession
            let registered = await eventually { session.pendingWaits == 1 }
            #expect(registered, "the long-poll never registered")
            for _ in 0..<2 { _ = try await get(server.baseURL, "/plain/payload.json") }
            #expect(session.pendingWaits == 1, "answered before its count")
            _ = try await get(server.baseURL, "/plain/payload.json")
            let reached = Date()
            #expect(try await waited == 3)
            #expect(Date().timeIntervalSince(reached) < 0.05)
        }
    }

    @Test func waitForHitsTimesOutWith408AndTheCountSoFar() async throws {
        try await withServer(plainStubs) { server in
            _ = try await get(server.baseURL, "/plain/payload.json")
            _ = try await get(server.baseURL, "/plain/payloads.json")
            let r = try await get(server.baseURL, "/__stubd/hits/wait?route=GET%20/plain/payload.json&count=2&timeout=0.2")
            #expect(r.status == 408)
            #expect((r.json["hits"] as? NSNumber)?.intValue == 1)
            do {
                _ = try await server.waitForHits("GET /plain/payload.json", count: 2, timeout: .milliseconds(100))
                Issue.record("did not time out")
            } catch let error as StubdError {
                #expect(error.description.hasPrefix("Expected 2 hits on GET /plain/payload.json, but was 1 (1 unmatched request; nearest: GET /plain/payloads.json vs GET /plain/payload.json"))
            }
        }
    }
}

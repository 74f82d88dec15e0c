import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

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

    @Test func sessionsSeeOnlyTheirOwnHitsSequencesAndQuotas() async throws {
        try await withServer(try TempStubs(quotaStubs).url) { server in
            let a = server.session("a"), b = server.session("b")
            #expect(a.baseURL.absoluteString.hasSuffix("/__s/a"))
            let path = "/api/KEY/conditions/q/CA/San_Francisco.json"
            for _ in 0..<10 { #expect(try await get(a.baseURL, path).status == 200) }
            #expect(try await get(a.baseURL, path).status == 429)
            #expect(try await get(b.baseURL, path).status == 200)
            #expect(try await get(server.baseURL, path, headers: ["X-Stubd-Session": "c"]).status == 200)
            #expect(try await a.hits("GET \(path)") == 11)
            #expect(try await b.hits("GET \(path)") == 1)
            #expect(try await server.session("c").hits("GET \(path)") == 1)
            #expect(try await server.hits("GET \(path)") == 0)
            try await a.reset()
            #expect(try await a.hits("GET \(path)") == 0)
            #expect(try await get(a.baseURL, path).status == 200)
        }
    }

    @Test func adminCallsAreNeverHits() async throws {
        try await withServer(exampleStubs) { server in
            for _ in 0..<3 { _ = try await get(server.baseURL, "/__stubd/health") }
            let hits = try await get(server.baseURL, "/__stubd/hits").json
            #expect((hits["paths"] as? [String: Any])?.isEmpty == true)
            #expect((hits["unmatched"] as? NSNumber)?.intValue == 0)
        }
    }
}

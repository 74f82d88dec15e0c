import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// What a session keeps apart (hits, sequences, quotas) and what the hit table counts, through the
/// engine with no socket. Moved from HitsAndSessionTests (StubdServerTests), which keeps the long-poll
/// `hits/wait` the server holds.
@Suite struct HitsAndSessionAnswerTests {
    @Test func sessionsSeeOnlyTheirOwnHitsSequencesAndQuotas() throws {
        let server = try EngineHarness(try TempStubs(WeatherQuotaStubs.files))
        let path = "/api/KEY/conditions/q/CA/San_Francisco.json"
        for _ in 0..<10 { #expect(server.get("/__s/a" + path).status == 200) }
        #expect(server.get("/__s/a" + path).status == 429)
        #expect(server.get("/__s/b" + path).status == 200)
        #expect(server.get(path, headers: ["X-Stubd-Session": "c"]).status == 200)
        #expect(try server.hits("GET \(path)", session: "a") == 11)
        #expect(try server.hits("GET \(path)", session: "b") == 1)
        #expect(try server.hits("GET \(path)", session: "c") == 1)
        #expect(try server.hits("GET \(path)") == 0)
        #expect(server.http("/__s/a/__stubd/reset", method: "POST", body: "{}").status == 200)
        #expect(try server.hits("GET \(path)", session: "a") == 0)
        #expect(server.get("/__s/a" + path).status == 200)
    }

    @Test func adminCallsAreNeverHits() throws {
        try withEngine(exampleStubs) { server in
            for _ in 0..<3 { _ = server.get("/__stubd/health") }
            let hits = server.get("/__stubd/hits").json
            #expect((hits["paths"] as? [String: Any])?.isEmpty == true)
            #expect((hits["unmatched"] as? NSNumber)?.intValue == 0)
        }
    }
}

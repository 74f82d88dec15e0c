import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

/// A test must never pass or fail for the wrong reason (issue 14).
@Suite struct NoSilentPassTests {
    @Test(arguments: ["brokn", "GET /api/{key}/conditons/**", "GET /api/KEY/conditions/q/CA/Atlantis.json", "/nowhere"])
    func anUnknownHitTargetIsA404NamingTheNearest(target: String) async throws {
        try await withServer(exampleStubs) { server in
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let r = try await get(server.baseURL, "/__stubd/hits?route=\(encoded)")
            #expect(r.status == 404, "\(target) → \(r.status) \(r.text)")
            #expect(r.text.contains("names no route"))
            let wait = try await get(server.baseURL, "/__stubd/hits/wait?route=\(encoded)&count=1&timeout=5")
            #expect(wait.status == 404, "hits/wait answers at once instead of waiting for a route that cannot exist")
            await #expect {
                _ = try await server.hits(target)
            } throws: { error in
                guard case StubdError.unknownRoute(let route, let nearest) = error else { return false }
                return route == target && !nearest.isEmpty
            }
        }
    }

    @Test func theMessageNamesTheNearestRoute() async throws {
        try await withServer(exampleStubs) { server in
            do {
                _ = try await server.waitForHits("londn", count: 1, timeout: .seconds(5))
                Issue.record("waited for a route that does not exist")
            } catch {
                #expect("\(error)".contains("No route 'londn'"), "\(error)")
                #expect("\(error)".contains("did you mean 'london'"), "\(error)")
            }
        }
    }

    @Test(arguments: ["london", "GET /api/{key}/conditions/q/{state}/{city}.json", "GET /api/{key}/**",
                      "GET /api/KEY/conditions/q/CA/San_Francisco.json", "GET /api/KEY/conditions/q/CA/San_Francisco",
                      "/api/KEY/conditions/q/IL/Chicago.json", "GET /data/2.5/weather"])
    func everyWayOfNamingARouteStillCounts(target: String) async throws {
        try await withServer(exampleStubs) { server in
            let hits = try await server.hits(target)
            #expect(hits == 0)
        }
    }
}

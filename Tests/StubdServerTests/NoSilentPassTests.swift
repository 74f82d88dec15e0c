import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdProtocol
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

    /// A route reference that reads as a method and a path but is neither is refused where it enters,
    /// saying what to write, instead of being taken for a name that names nothing (a 404 "did you mean").
    @Test(arguments: [("GET a/b", "a path starts with '/'"), ("FETCH /a", "unknown method 'FETCH'"),
                      ("GET /api/**/x", "bad path pattern")])
    func aMalformedRouteReferenceIsRefusedWhereItEnters(target: String, says: String) async throws {
        try await withServer(exampleStubs) { server in
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            for call in ["hits?route=\(encoded)", "hits/wait?route=\(encoded)&count=1&timeout=5"] {
                let r = try await get(server.baseURL, "/__stubd/" + call)
                #expect(r.status == 400, "\(call) → \(r.status) \(r.text)")
                #expect(r.text.contains("Bad route reference") && r.text.contains("'\(target)'") && r.text.contains(says), "\(r.text)")
            }
            if target.contains("**") { return } // the pattern's rules are the server's: the client sends it and gets the 400
            let refused: @Sendable (any Error) -> Bool = { error in
                guard let error = error as? RouteReferenceError else { return false }
                return error.text == target && error.description.contains(says)
            }
            await #expect(performing: { _ = try await server.hits(target) }, throws: refused)
            await #expect(performing: { _ = try await server.hits(RouteReference(stringLiteral: target)) }, throws: refused)
            await #expect(performing: { _ = try await server.waitForHits(target, count: 1, timeout: .seconds(5)) }, throws: refused)
        }
    }
}

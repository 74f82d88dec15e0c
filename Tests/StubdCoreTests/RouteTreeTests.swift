import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// The segment tree behind `RouteMatcher`, at the scale users have: thousands of routes shaped like
/// the weather example (`/api/{key}/conditions/q/CA/City_N.json`), plus the shapes that share it.
@Suite struct RouteTreeTests {
    /// A convention route as the scanner makes it: the extension optional on the last segment.
    static func city(_ n: Int) -> Route {
        let pattern = try! PathPattern(parsing: "/api/{key}/conditions/q/CA/City_\(n)", optionalExtension: ".json")
        return Route(name: nil, method: .only(.get), pattern: pattern,
                     responses: [CannedResponse(status: 200, headers: [:], body: Data("\(n)".utf8))],
                     priority: 10, source: .convention(file: "api/{key}/conditions/q/CA/City_\(n).json"))
    }

    static func route(_ method: String, _ path: String, priority: Int = 5, name: String? = nil) -> Route {
        Route(name: name, method: method == "ANY" ? .any : .only(HTTPRequest.Method(method)!), pattern: try! PathPattern(parsing: path),
              responses: [CannedResponse(status: 200, headers: [:], body: Data(path.utf8))], priority: priority,
              source: .manifest(file: "stubd.yml", line: 1))
    }

    static let tenThousand = RouteMatcher(routes: (0..<10_000).map(city))

    func matched(_ matcher: RouteMatcher, _ method: String, _ path: String) -> (String, [String: String])? {
        if case .matched(let route, let parameters) = matcher.match(RequestHead(method: HTTPRequest.Method(method)!, path: path)) {
            return (route.pattern.text, parameters)
        }
        return nil
    }

    @Test(arguments: [0, 1, 4_999, 9_999])
    func everyOneOfTenThousandPatternedRoutesAnswersItsOwnPath(n: Int) throws {
        let (pattern, parameters) = try #require(matched(Self.tenThousand, "GET", "/api/K\(n)/conditions/q/CA/City_\(n).json"))
        #expect(pattern == "/api/{key}/conditions/q/CA/City_\(n)")
        #expect(parameters == ["key": "K\(n)"])
        // Without the extension too, and HEAD as GET.
        #expect(matched(Self.tenThousand, "HEAD", "/api/K/conditions/q/CA/City_\(n)")?.0 == pattern)
    }

    @Test func aTypoAmongTenThousandNamesTheNearestRoutes() throws {
        guard case .notFound(let misses) = Self.tenThousand.match(RequestHead(method: .get, path: "/api/K/conditions/q/CA/City_42.jsn")) else {
            Issue.record("a typo matched something")
            return
        }
        #expect(!misses.isEmpty)
        #expect(misses.contains { $0.route.pattern.text.hasSuffix("/City_42") }, "\(misses.map { "\($0) \($0.distance)" })")
        #expect(misses.allSatisfy { $0.reason.contains("segment 6") }, "\(misses)")
        // A typo at the start of the name.
        guard case .notFound(let atStart) = Self.tenThousand.match(RequestHead(method: .get, path: "/api/K/conditions/q/CA/Citty_7363.json")) else {
            Issue.record("a typo matched something")
            return
        }
        #expect(atStart.first?.route.pattern.text.hasSuffix("/City_7363") == true, "\(atStart)")
        // A typo earlier in the path still finds routes under the part that matched.
        guard case .notFound(let early) = Self.tenThousand.match(RequestHead(method: .get, path: "/api/K/conditons/q/CA/City_1.json")) else {
            Issue.record("a typo matched something")
            return
        }
        #expect(early.first?.reason.contains("'conditons' here, 'conditions' in the route") == true, "\(early)")
    }

    @Test func orderRulesHoldAcrossBranches() throws {
        let matcher = RouteMatcher(routes: [
            Self.route("GET", "/users/{id}"),
            Self.route("GET", "/users/me"),
            Self.route("GET", "/users/**"),
            Self.route("ANY", "/users/{id}/posts"),
            Self.route("GET", "/users/{id}/posts"),
            Self.route("GET", "/v{version}/items"),
            Self.route("GET", "/{anything}/items"),
            Self.route("GET", "/files/**", priority: 1),
            Self.route("GET", "/files/readme"),
        ])
        #expect(matched(matcher, "GET", "/users/me")?.0 == "/users/me")
        #expect(matched(matcher, "GET", "/users/42")?.1 == ["id": "42"])
        #expect(matched(matcher, "GET", "/users/42/posts/7")?.0 == "/users/**")
        #expect(matched(matcher, "GET", "/users")?.0 == "/users/**")
        #expect(matched(matcher, "GET", "/users/42/posts")?.0 == "/users/{id}/posts")
        #expect(matched(matcher, "POST", "/users/42/posts")?.0 == "/users/{id}/posts")
        #expect(matched(matcher, "GET", "/v2/items")?.1 == ["version": "2"])
        #expect(matched(matcher, "GET", "/x2/items")?.1 == ["anything": "x2"])
        // Priority beats specificity.
        #expect(matched(matcher, "GET", "/files/readme")?.0 == "/files/**")
        if case .wrongMethod(let allowed, _) = matcher.match(RequestHead(method: .delete, path: "/v2/items")) {
            #expect(allowed == ["GET", "HEAD", "OPTIONS"])
        } else {
            Issue.record("DELETE on a GET-only path is not a 405")
        }
    }

    @Test func insertingAndRemovingOneRouteLeavesTheOthers() throws {
        var matcher = RouteMatcher()
        let routes = (0..<1_000).map { Self.route("GET", "/runtime/\($0)/{id}") }
        for route in routes { matcher.insert(route) }
        #expect(matcher.count == 1_000)
        matcher.remove(routes[500])
        #expect(matcher.count == 999)
        #expect(matched(matcher, "GET", "/runtime/500/x") == nil)
        #expect(matched(matcher, "GET", "/runtime/501/x")?.1 == ["id": "x"])
        matcher.remove(routes[500])
        #expect(matcher.count == 999, "removing a route twice counts once")
    }
}

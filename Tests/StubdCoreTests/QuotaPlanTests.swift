import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// A quota's key is worked out per route when the catalog loads (`QuotaPlan`); these check that the
/// shortcut always agrees with matching the selector on the request, and is taken when it can be.
@Suite struct QuotaPlanTests {
    struct NoRoute: Error { let request: String }

    let stubs: StubCatalog

    init() throws {
        stubs = try TempStubs([
            "api/{key}/conditions/q/{state}/{city}.json": "{}",
            "api/DEMO/status.json": "{}",
            "v{n}/items.json": "{}",
            "stubd.yml": """
            routes:
              - { name: anything, request: { method: ANY, path: "/any/{id}" }, response: { status: 200 } }
              - { name: deep, request: { path: "/deep/**" }, response: { status: 200 } }
            quotas:
              - { name: by-key, routes: ["GET /api/{key}/**"], key: { path: key }, limits: ["5/minute"] }
              - { name: by-city, routes: ["GET /api/{k}/conditions/q/{s}/{town}"], key: { path: town }, limits: ["5/minute"] }
              - { name: by-appid, routes: ["GET /api/**"], key: { query: appid }, limits: ["5/minute"] }
              - { name: get-only, routes: ["GET /any/{id}"], key: { path: id }, limits: ["5/minute"] }
              - { name: named, routes: [anything], key: { path: id }, limits: ["5/minute"] }
              - { name: versioned, routes: ["GET /v{version}/**"], key: { path: version }, limits: ["5/minute"] }
              - { name: deep-item, routes: ["GET /deep/{item}"], key: { path: item }, limits: ["5/minute"] }
            """,
        ]).load()
    }

    func plan(_ quota: String, on method: String, _ path: String) throws -> (QuotaPlan, Route, [String: String], RequestHead) {
        let parts = path.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? queryItems(parsing: parts[1]) : []
        let request = RequestHead(method: HTTPRequest.Method(method)!, path: String(parts[0]), query: query)
        guard case .matched(let route, let parameters) = stubs.match(request) else { throw NoRoute(request: "\(method) \(path)") }
        let plan = try #require(route.quotaPlans.first { $0.quota.name == quota }, "\(quota) does not cover \(route)")
        return (plan, route, parameters, request)
    }

    @Test(arguments: [
        // quota, method, request, the key expected
        ("by-key", "GET", "/api/K1/conditions/q/CA/San_Francisco.json", "K1"),
        ("by-key", "HEAD", "/api/K2/conditions/q/CA/Oakland", "K2"),
        ("by-key", "GET", "/api/DEMO/status.json", "DEMO"),
        ("by-city", "GET", "/api/K1/conditions/q/CA/San_Francisco.json", "San_Francisco.json"),
        ("by-city", "GET", "/api/K1/conditions/q/CA/San_Francisco", "San_Francisco"),
        ("by-appid", "GET", "/api/K1/conditions/q/CA/Oakland.json?appid=abc", "abc"),
        ("by-appid", "GET", "/api/K1/conditions/q/CA/Oakland.json", ""),
        ("named", "POST", "/any/42", "42"),
        ("versioned", "GET", "/v2/items.json", "2"),
        ("deep-item", "GET", "/deep/box", "box"),
    ])
    func theKeyIsWhatMatchingTheSelectorGives(quota: String, method: String, path: String, expected: String) throws {
        let (plan, route, parameters, request) = try plan(quota, on: method, path)
        #expect(plan.key(for: request, parameters: parameters, route: route) == expected)
        #expect(plan.matchedKey(request, parameters, route) == expected)
    }

    @Test func aSelectorForOneMethodCountsOnlyThatMethodOfAnAnyRoute() throws {
        let (plan, route, parameters, post) = try plan("get-only", on: "POST", "/any/7")
        #expect(plan.key(for: post, parameters: parameters, route: route) == nil)
        let get = RequestHead(method: .get, path: "/any/7")
        #expect(plan.key(for: get, parameters: parameters, route: route) == "7")
    }

    @Test func aSelectorNarrowerThanItsRouteCountsOnlyWhatItMatches() throws {
        let (plan, route, parameters, request) = try plan("deep-item", on: "GET", "/deep/box")
        #expect(plan.key(for: RequestHead(method: .get, path: "/deep/box/y"), parameters: parameters, route: route) == nil)
        #expect(plan.key(for: request, parameters: parameters, route: route) == "box")
    }

    @Test func selectorsThatCoverTheirRoutesAreNotMatchedPerRequest() throws {
        func shape(_ quota: String, _ path: String) throws -> String {
            switch try plan(quota, on: "GET", path).0.key {
            case .constant(let value): return "constant \(value)"
            case .routeParameter(let name): return "parameter \(name)"
            case .segment(let index): return "segment \(index)"
            case .fromRequest: return "from the request"
            case .perRequest: return "per request"
            }
        }
        #expect(try shape("by-key", "/api/K1/conditions/q/CA/Oakland.json") == "parameter key")
        #expect(try shape("by-key", "/api/DEMO/status.json") == "constant DEMO")
        // The convention route answers Oakland and Oakland.json: the whole segment is the key.
        #expect(try shape("by-city", "/api/K1/conditions/q/CA/Oakland.json") == "segment 5")
        #expect(try shape("by-appid", "/api/K1/conditions/q/CA/Oakland.json") == "from the request")
        #expect(try shape("named", "/any/1") == "parameter id")
        #expect(try shape("versioned", "/v2/items.json") == "per request")
        #expect(try shape("deep-item", "/deep/box") == "per request")
    }

    /// `SoleQuota` skips the per-plan checks, so it may only stand for a route with one quota whose
    /// key is fixed and whose method covers all the route answers. (A selector naming a convention
    /// route's file, `GET /g.json`, is matched per request: the route also answers `/g`.)
    @Test func onlyAFixedKeyUnderTheRoutesOwnMethodsIsChargedDirectly() throws {
        let catalog = try TempStubs([
            "g/x.json": "{}", "two/x.json": "{}", "q/x.json": "{}", "api/DEMO/x.json": "{}",
            "stubd.yml": """
            routes:
              - { name: anything, request: { method: ANY, path: "/any/{id}" }, response: { status: 200 } }
            quotas:
              - { name: global, routes: ["GET /g/**", "GET /two/**"], limits: ["5/minute"] }
              - { name: also, routes: ["GET /two/**"], limits: ["5/minute"] }
              - { name: by-appid, routes: ["GET /q/**"], key: { query: appid }, limits: ["5/minute"] }
              - { name: literal, routes: ["GET /api/{key}/**"], key: { path: key }, limits: ["5/minute"] }
              - { name: get-only, routes: ["GET /any/**"], limits: ["5/minute"] }
            """,
        ]).load()
        let session = StubEngine(catalog: catalog).defaultSession
        func sole(_ path: String) throws -> String? {
            let route = try #require(catalog.route("GET", path))
            return session.state(for: route, generation: catalog.generation).soleQuota.map { "\($0.quota.name) \($0.key)" }
        }
        #expect(try sole("/g/x.json") == "global ")
        #expect(try sole("/api/DEMO/x.json") == "literal DEMO")
        #expect(try sole("/two/x.json") == nil)
        #expect(try sole("/q/x.json") == nil)
        // A POST to the ANY route is not the GET quota's to count.
        #expect(try sole("/any/1") == nil)
    }
}

public import Foundation
public import StubdProtocol
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// What a test can do with a stub server, in-process (`StubServer`) or running elsewhere (`StubdClient`).
public protocol StubControl: Sendable {
    /// Where the app under test should send requests: `http://127.0.0.1:PORT`, or `…/__s/ID` for a session.
    var baseURL: URL { get }
    /// A view of the same server whose hits, sequences, quotas, runtime stubs and clock are isolated.
    func session(_ id: String) -> any StubControl
    /// Hits on a route name, a route pattern (`GET /api/{key}/**`) or a concrete path (`GET /api/KEY/x.json`).
    func hits(_ route: RouteReference) async throws -> Int
    /// Returns as soon as the route has `count` hits (the server holds the request; nothing polls);
    /// throws `StubdError.waitTimedOut` with the count so far and the nearest unmatched requests.
    func waitForHits(_ route: RouteReference, count: Int, timeout: Duration) async throws -> Int
    /// Hits, sequences, quotas, journal, runtime stubs and clock back to the start.
    func reset() async throws
    /// Adds a route at run time; returns its id.
    func addStub(_ route: StubRoute) async throws -> String
    /// Removes a route `addStub(_:)` added, by the id it returned.
    func removeStub(id: String) async throws
    /// Pre-fills a quota (`["day": 500]`) so a test reaches the failure path without 500 calls.
    func setQuotaUsed(_ quota: String, key: String?, used: [String: Int]) async throws
    /// Moves this session's clock forward, so quota windows pass without sleeping.
    func advanceClock(by: Duration) async throws
    /// Every route's hits in this session, by route name or signature (what `HitGenerations` marks).
    func allHits() async throws -> [String: Int]
    /// How many requests matched nothing, and why the latest ones missed their nearest routes
    /// (what a hit assertion's failure message quotes).
    func unmatchedReport() async throws -> (count: Int, nearest: [String])
    /// Which answers, network behaviours and quota states requests reached: of this session since
    /// its last reset, or, for the server itself, of every session since it started.
    func coverage() async throws -> CoverageReport
    /// With `serve --spec`: each journaled request of this session that broke the spec, or whose
    /// rendered answer did, as `GET /weather?units=celsius: query.units: "celsius" is not one of …`.
    func contractProblems() async throws -> [String]
    /// Matches this session's requests as if they sent `Prefer: value` when they send none: picks an
    /// answer of routes written for Prism's convention (`"code=429"`, `"example=rainy"`), as
    /// `stubd openapi import` writes them. `nil` stops it; a reset does too.
    func prefer(_ value: String?) async throws
    /// The admin API of this view as a `StubdClient` (scenarios, resources, streams, WebSockets):
    /// over the network to `baseURL`, or, in process, through the engine without a socket.
    var adminClient: StubdClient { get }
    /// A configuration whose requests these stubs answer, in this view's session: without a socket,
    /// whatever host a request names, where the engine runs in this process (`withStubServer`,
    /// `startStubServer`); plain `.ephemeral` where the stubs are reached over the network (a daemon at
    /// `STUBD_URL`), whose requests must go to `baseURL`.
    var sessionConfiguration: URLSessionConfiguration { get }
    /// A `URLSession` made with `sessionConfiguration`, one per view: give it to the code under test.
    var urlSession: URLSession { get }
}

extension StubControl {
    /// Over the network to `baseURL`.
    public var adminClient: StubdClient { (self as? StubdClient) ?? StubdClient(baseURL: baseURL) }

    /// `.ephemeral`, the way to `baseURL` over the network, with room for the many requests at once a test may make.
    public var sessionConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        return configuration
    }

    /// One session for every view reached over the network (`sessionConfiguration`'s).
    public var urlSession: URLSession { NetworkSession.shared }
}

/// The `URLSession` of views reached over the network: made once.
private enum NetworkSession {
    static let shared: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        return URLSession(configuration: configuration)
    }()
}

extension StubControl {
    /// Throws `StubdError.brokenContract` listing what `contractProblems()` found: the app sent
    /// something the real API would refuse (`serve --spec` serves the stub anyway, by default).
    public func requireRequestsKeepToContract() async throws {
        let problems = try await contractProblems()
        if !problems.isEmpty { throw StubdError.brokenContract(problems) }
    }
}

extension StubControl {
    /// `hits(_:)` for a reference held as text (`let route = "GET /api/\(key)/x.json"`): read here,
    /// once; one that cannot be read (`GET a/b`) throws `RouteReferenceError` (StubdProtocol) before anything is sent.
    public func hits(_ route: String) async throws -> Int {
        try await hits(RouteReference(parsing: route))
    }

    /// `waitForHits(_:count:timeout:)` for a reference held as text, read here, once.
    public func waitForHits(_ route: String, count: Int, timeout: Duration) async throws -> Int {
        try await waitForHits(RouteReference(parsing: route), count: count, timeout: timeout)
    }
}

public import StubdProtocol

/// A `StubControl` whose calls are the admin API's, made by its `adminClient`: the in-process socket
/// server (`StubServer`, over its socket) and the engine without a socket (`InProcessStubs`, through
/// its `URLProtocol`) both answer them as a daemon does, so a test behaves the same whichever it has.
/// A conformer gives `baseURL`, `session(_:)` and `adminClient`; the rest is here.
public protocol AdminBackedControl: StubControl {}

extension AdminBackedControl {
    /// Hits in this control's session, asked of the admin API.
    public func hits(_ route: RouteReference) async throws -> Int { try await adminClient.hits(route) }
    /// Held by the server until `route` has `count` hits, or `timeout` passes.
    public func waitForHits(_ route: RouteReference, count: Int, timeout: Duration) async throws -> Int {
        try await adminClient.waitForHits(route, count: count, timeout: timeout)
    }
    /// This control's session back to its start.
    public func reset() async throws { try await adminClient.reset() }
    /// Adds a route at run time; returns its id.
    public func addStub(_ route: StubRoute) async throws -> String { try await adminClient.addStub(route) }
    /// Removes a route `addStub(_:)` added.
    public func removeStub(id: String) async throws { try await adminClient.removeStub(id: id) }
    /// Pre-fills a quota.
    public func setQuotaUsed(_ quota: String, key: String?, used: [String: Int]) async throws {
        try await adminClient.setQuotaUsed(quota, key: key, used: used)
    }
    /// Moves this control's session clock forward, without sleeping.
    public func advanceClock(by duration: Duration) async throws { try await adminClient.advanceClock(by: duration) }
    /// Every route's hits in this control's session.
    public func allHits() async throws -> [String: Int] { try await adminClient.allHits() }
    /// How many requests matched nothing, and why the latest ones missed their nearest routes.
    public func unmatchedReport() async throws -> (count: Int, nearest: [String]) { try await adminClient.unmatchedReport() }
    /// What requests reached of the stubs.
    public func coverage() async throws -> CoverageReport { try await adminClient.coverage() }
    /// With specs: each request that broke them, or whose answer did.
    public func contractProblems() async throws -> [String] { try await adminClient.contractProblems() }
    /// Answers this session's requests as if they sent `Prefer: value` when they send none; nil stops it.
    public func prefer(_ value: String?) async throws { try await adminClient.prefer(value) }
}

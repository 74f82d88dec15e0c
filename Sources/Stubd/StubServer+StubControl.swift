// URLSession is Foundation's on Apple platforms, FoundationNetworking's on Linux.
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif
public import StubdClient
public import StubdProtocol

/// The in-process server is controlled through the same admin API as a remote one, so a test
/// behaves the same against `StubServer` and against `stubd serve` at `$STUBD_URL`.
extension StubServer: StubControl {
    private var client: StubdClient { StubdClient(baseURL: baseURL, adminToken: adminToken) }

    public func session(_ id: String) -> any StubControl { client.session(id) }
    public func hits(_ route: RouteReference) async throws -> Int { try await client.hits(route) }
    public func waitForHits(_ route: RouteReference, count: Int, timeout: Duration) async throws -> Int {
        try await client.waitForHits(route, count: count, timeout: timeout)
    }
    public func reset() async throws { try await client.reset() }
    public func addStub(_ route: StubRoute) async throws -> String { try await client.addStub(route) }
    public func removeStub(id: String) async throws { try await client.removeStub(id: id) }
    public func setQuotaUsed(_ quota: String, key: String?, used: [String: Int]) async throws {
        try await client.setQuotaUsed(quota, key: key, used: used)
    }
    public func advanceClock(by duration: Duration) async throws { try await client.advanceClock(by: duration) }
    public func allHits() async throws -> [String: Int] { try await client.allHits() }
    public func unmatchedReport() async throws -> (count: Int, nearest: [String]) { try await client.unmatchedReport() }
    public func coverage() async throws -> CoverageReport { try await client.coverage() }
    public func contractProblems() async throws -> [String] { try await client.contractProblems() }
    public func prefer(_ value: String?) async throws { try await client.prefer(value) }
    /// Answered by this server's engine in this process, without the socket, in the default session:
    /// the same hits, quotas, clock and state as requests to `baseURL`.
    public var sessionConfiguration: URLSessionConfiguration { inProcess.sessionConfiguration }
    /// A `URLSession` made with `sessionConfiguration`, once; `stop()` invalidates it.
    public var urlSession: URLSession { inProcess.urlSession }
    /// The latest requests of the default session (`limit` at most), newest last.
    public func requests(limit: Int = 100) async throws -> JournalReport { try await client.requests(limit: limit) }
}

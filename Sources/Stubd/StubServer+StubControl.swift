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
extension StubServer: AdminBackedControl {
    /// The admin API over this server's socket, with its admin token.
    public var adminClient: StubdClient { StubdClient(baseURL: baseURL, adminToken: adminToken) }

    /// A view of the same server in session `id`, over its socket.
    public func session(_ id: String) -> any StubControl { adminClient.session(id) }
    /// The latest requests of the default session (`limit` at most), newest last.
    public func requests(limit: Int = 100) async throws -> JournalReport { try await adminClient.requests(limit: limit) }
    /// Answered by this server's engine in this process, without the socket, in the default session:
    /// the same hits, quotas, clock and state as requests to `baseURL`.
    public var sessionConfiguration: URLSessionConfiguration { inProcess.sessionConfiguration }
    /// A `URLSession` made with `sessionConfiguration`, once; after `stop()` its requests fail, saying so.
    public var urlSession: URLSession { inProcess.urlSession }
}

import Dispatch
import Foundation
import StubdCore
import StubdEngine
import StubdProtocol

/// The WebSockets a server holds open, so `stop()` can close each before libmicrohttpd's daemons go
/// (a handle given back after `MHD_stop_daemon` would point into freed memory).
final class WebSocketRegistry: Sendable {
    private let open = Locked<[ObjectIdentifier: WebSocketConnection]>([:])
    private let finished = DispatchGroup()

    var count: Int { open.withLock { $0.count } }

    func add(_ connection: WebSocketConnection) {
        finished.enter()
        open.withLock { $0[ObjectIdentifier(connection)] = connection }
    }

    /// The connection has given its socket back to libmicrohttpd.
    func remove(_ connection: WebSocketConnection) {
        open.withLock { $0[ObjectIdentifier(connection)] = nil }
        finished.leave()
    }

    /// Sends each open socket a close (1001, going away) and waits, at most 2 seconds, until each
    /// has given its socket back.
    func closeAll() {
        for connection in open.withLock({ Array($0.values) }) { connection.goAway() }
        _ = finished.wait(timeout: .now() + 2)
    }
}

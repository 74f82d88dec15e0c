#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StubdProtocol

/// TLS connections whose client has not yet sent a request: still in the handshake, or stalled in it.
/// When the server is full, the oldest of those that has taken over a second gives its place up, so a
/// slowloris of half-finished handshakes cannot lock real clients out; a connection that has sent a
/// request is never evicted.
final class HandshakeWatch: Sendable {
    /// Socket → when the connection started (uptime nanoseconds).
    private let pending = Locked<[Int32: UInt64]>([:])
    static let graceNanoseconds: UInt64 = 1_000_000_000

    func began(_ fd: Int32) {
        pending.withLock { $0[fd] = DispatchTime.now().uptimeNanoseconds }
    }

    /// The connection sent a request, or closed. libmicrohttpd tells of a close before it closes the
    /// socket, so a socket in the list is still the connection's.
    func ended(_ fd: Int32) {
        _ = pending.withLock { $0.removeValue(forKey: fd) }
    }

    /// Cuts the oldest connection that has been in its handshake past the grace period; false if none has.
    /// The worker sees the socket shut and closes the connection, giving its place back.
    func evictOldest() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return pending.withLock { pending in
            guard let oldest = pending.min(by: { $0.value < $1.value }), now - oldest.value > HandshakeWatch.graceNanoseconds else {
                return false
            }
            pending.removeValue(forKey: oldest.key)
            shutdown(oldest.key, Int32(SHUT_RDWR))
            return true
        }
    }
}

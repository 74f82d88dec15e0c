#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StubdProtocol
import Synchronization

/// Answers `CONNECT host:443` (a client whose `HTTPS_PROXY` is stubd) by ending the TLS itself: the
/// connection leaves the plain worker and goes on in a TLS worker, whose certificate callback presents
/// a leaf for that host.
///
/// libmicrohttpd 0.9.75 has no way to take a socket back from a connection but an HTTP upgrade, which
/// must answer 101. So the socket is duplicated, `200 Connection established` written on the
/// duplicate, the duplicate handed to a TLS worker with `MHD_add_connection`, and the plain
/// connection closed. Closing it only closes its descriptor: our plain workers run with
/// `MHD_USE_TURBO`, under which libmicrohttpd does not `shutdown()` a socket it closes (connection.c,
/// `MHD_connection_mark_closed_`), so the duplicate keeps the connection open.
final class TunnelHandOff: Sendable {
    /// The TLS workers, set once they have started (they are told of this object first).
    private let daemons = Locked<[Daemon]>([])
    let budget: ConnectionBudget
    private let next = Atomic<Int>(0)
    let leaves: LeafCertificates
    /// The session a tunnel's CONNECT named (its proxy user name), by the duplicate's descriptor, until
    /// the TLS worker starts the connection and moves it into the connection's state.
    private let sessions = Locked<[Int32: String]>([:])

    init(budget: ConnectionBudget, leaves: LeafCertificates) {
        self.budget = budget
        self.leaves = leaves
    }

    func attach(_ started: [Daemon]) { daemons.withLock { $0 = started } }

    enum Failure: Error {
        /// The plain connection still stands: answer it.
        case full
        case socket(String)
    }

    /// Moves `connection`'s socket into a TLS worker after telling the client the tunnel is open. On
    /// success the caller must close the plain connection (return `.close`) without writing to it.
    func take(_ connection: borrowing Connection, session: String?) -> Result<Void, Failure> {
        let workers = daemons.withLock { $0 }
        guard !workers.isEmpty else { return .failure(.socket("the TLS workers have not started")) }
        let fd = connection.fd
        guard fd >= 0 else { return .failure(.socket("the connection has no socket")) }
        guard budget.admit() else { return .failure(.full) }
        let tunnel = dup(fd)
        guard tunnel >= 0 else {
            budget.refused()
            return .failure(.socket("cannot duplicate the socket: \(String(cString: strerror(errno)))"))
        }
        _ = fcntl(tunnel, F_SETFD, FD_CLOEXEC)
        let established = "HTTP/1.1 200 Connection established\r\n\r\n"
        let sent = established.withCString { send(tunnel, $0, strlen($0), Sockets.noSignal) }
        guard sent == established.utf8.count else {
            close(tunnel)
            budget.refused()
            return .failure(.socket("the client left before the tunnel opened"))
        }
        if let session { sessions.withLock { $0[tunnel] = session } }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(tunnel, $0, &length) } }
        let index = next.add(1, ordering: .relaxed).newValue % workers.count
        // libmicrohttpd owns (and on failure closes) the duplicate from here.
        let added = withUnsafePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { workers[index].add(tunnel, address: $0, length: length) }
        }
        if !added {
            budget.refused()
            _ = sessions.withLock { $0.removeValue(forKey: tunnel) }
        }
        return .success(())
    }

    /// The session the CONNECT for the tunnel on `fd` named, handed over once.
    func claimSession(fd: Int32) -> String? {
        sessions.withLock { $0.removeValue(forKey: fd) }
    }
}

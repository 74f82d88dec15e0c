#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StubdCore
import StubdEngine
import Synchronization
import HTTPTypes

/// Accepts connections and deals them round-robin to the libmicrohttpd daemons, one worker
/// thread each. libmicrohttpd's own pool lets whichever worker wakes first accept up to ten
/// connections at once, so 32 keep-alive clients split 21/11 and one core idles; dealing them
/// out keeps the workers even (measured: Benchmarks/RESULTS.md).
final class Acceptor: @unchecked Sendable {
    private let listener: Int32
    private let daemons: [Daemon]
    private let budget: ConnectionBudget
    /// The daemons speak TLS: a connection over the cap is closed, not answered in plain HTTP.
    private let tls: Bool
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(listener: Int32, daemons: [Daemon], budget: ConnectionBudget, tls: Bool = false) {
        self.listener = listener
        self.daemons = daemons
        self.budget = budget
        self.tls = tls
        NamedThread.start(tls ? "stubd-accept-tls" : "stubd-accept") { [self] in run() }
    }

    private func run() {
        var next = 0
        while !stopping.load(ordering: .relaxed) {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listener, $0, &length)
                }
            }
            guard client >= 0 else {
                if stopping.load(ordering: .relaxed) { break }
                // Out of descriptors or memory: back off instead of spinning; anything else is per-connection.
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { usleep(10_000) }
                continue
            }
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            Sockets.suppressBrokenPipe(client)
            guard budget.admit() else {
                if tls { close(client) } else { Acceptor.turnAway(client, cap: budget.cap) }
                continue
            }
            // Nagle's algorithm would hold each small keep-alive answer ~40 ms waiting for an ACK
            // (libcurl, so URLSession on Linux, is hit by it).
            var yes: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            // MHD owns (and on failure closes) the socket from here.
            let added = withUnsafePointer(to: &storage) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { daemons[next].add(client, address: $0, length: length) }
            }
            if !added { budget.refused() }
            next = (next + 1) % daemons.count
        }
        finished.signal()
    }

    /// Answers a connection over the cap with a 503 and closes it, without a worker: the workers
    /// are what the cap protects. What the client already sent is read first, so the close is a
    /// FIN the client can read the answer before, not a reset.
    private static func turnAway(_ client: Int32, cap: Int) {
        let reply = ResponseWriter.closingBytes(.problem(503, title: "Too many connections",
            detail: "stubd holds at most \(cap) connections (--max-connections); close idle ones or raise the cap", headers: [.retryAfter: "1"]))
        var scratch = [UInt8](repeating: 0, count: 4096)
        _ = recv(client, &scratch, scratch.count, Int32(MSG_DONTWAIT))
        _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Sockets.noSignal) }
        shutdown(client, Int32(SHUT_WR))
        close(client)
    }

    /// Stops accepting: wakes the blocked accept, waits for the thread, closes the socket.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }
}

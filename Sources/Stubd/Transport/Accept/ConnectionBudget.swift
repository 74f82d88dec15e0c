import Synchronization

/// How many connections the server holds, against its cap (`--max-connections`).
///
/// libmicrohttpd 0.9.75 deadlocks a worker for good when a connection arrives at its own limit
/// (`new_connection_process_` returns without releasing `cleanup_connection_mutex`; fixed only in
/// 1.0.0). So the acceptor keeps count and never hands a worker a connection past the cap, and each
/// worker's own limit is set above the cap plus what can be in transit.
final class ConnectionBudget: Sendable {
    let cap: Int
    /// Accepted by us, not yet started by a worker.
    private let inTransit = Atomic<Int>(0)
    /// Started by a worker, not yet closed (counted by libmicrohttpd's connection notices).
    private let open = Atomic<Int>(0)

    /// TLS connections still in their handshake: the first to go when the server is full.
    let handshakes = HandshakeWatch()
    /// Connections waiting for a request's head: cut past its deadline, and the next to go.
    let heads: HeadWatch

    init(cap: Int, headDeadlineSeconds: Int = 30) {
        self.cap = cap
        heads = HeadWatch(deadlineSeconds: headDeadlineSeconds)
    }

    var count: Int { inTransit.load(ordering: .relaxed) + open.load(ordering: .relaxed) }

    /// Takes a place for a new connection; false when the server is full.
    func admit() -> Bool {
        // Full: a TLS handshake stalled past a second gives its place up (it closes in a moment), or
        // else the connection that has waited longest for a request's head (a slowloris, an idle keep-alive).
        guard count < cap || handshakes.evictOldest() || heads.evictLongestWaiting() else { return false }
        inTransit.add(1, ordering: .relaxed)
        return true
    }

    /// A worker has started an admitted connection.
    func started() {
        inTransit.subtract(1, ordering: .relaxed)
        open.add(1, ordering: .relaxed)
    }

    func closed() { open.subtract(1, ordering: .relaxed) }

    /// libmicrohttpd refused an admitted connection outright.
    func refused() { inTransit.subtract(1, ordering: .relaxed) }

    /// Each worker's own limit: the whole cap (dealing is round-robin, but connections close
    /// unevenly) plus room for connections accepted while the count catches up.
    var perWorkerLimit: Int { cap + 64 }
}

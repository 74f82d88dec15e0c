import CMicroHTTPD
import Foundation
import Synchronization

/// One libmicrohttpd daemon (a worker thread and its connections): the only holder of its pointer,
/// as `Connection` is of a connection's. `stop()` is the one place it is stopped and freed, at most
/// once, so no copy of the pointer can reach a freed daemon; what outlives it keeps its `address`.
final class Daemon: @unchecked Sendable {
    private let raw: OpaquePointer
    private let stopped = Atomic<Bool>(false)

    /// Starts a daemon with `flags` and `options` (ending in `.END`), calling `handler` with
    /// `context` for each request; nil when libmicrohttpd could not start it.
    static func start(flags: UInt32, handler: MHD_AccessHandlerCallback, context: UnsafeMutableRawPointer,
                      options: inout [MHD_OptionItem]) -> Daemon? {
        let raw = options.withUnsafeMutableBufferPointer { shim_start_daemon(flags, 0, handler, context, $0.baseAddress) }
        return raw.map(Daemon.init)
    }

    private init(_ raw: OpaquePointer) { self.raw = raw }

    /// Its identity, as `Connection.daemonAddress` tells it (the certificate callback, a worker's messages).
    var address: UInt { UInt(bitPattern: UnsafeRawPointer(raw)) }

    /// Hands it an accepted socket, which it owns (and on failure closes) from here.
    func add(_ socket: Int32, address: UnsafePointer<sockaddr>, length: socklen_t) -> MHD_Result {
        MHD_add_connection(raw, socket, address, length)
    }

    /// Stops its thread, closes its connections and frees it; later calls do nothing.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        MHD_stop_daemon(raw)
    }
}

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
    private static func start(flags: UInt32, handler: MHD_AccessHandlerCallback, context: UnsafeMutableRawPointer,
                      options: inout [MHD_OptionItem]) -> Daemon? {
        let raw = options.withUnsafeMutableBufferPointer { shim_start_daemon(flags, 0, handler, context, $0.baseAddress) }
        return raw.map(Daemon.init)
    }

    /// Starts one worker: a daemon without a listening socket (the `Acceptor` feeds it), polling on
    /// its own thread, calling the router (`router`, an unretained `RequestRouter`) for each request,
    /// its messages to `messages`; `tls`: the tunnels' hand-off, for a worker that speaks TLS.
    static func startWorker(router: UnsafeMutableRawPointer, messages: WorkerMessages, timeoutSeconds: Int, memoryBytes: Int,
                            connections: ConnectionBudget, tls: TunnelHandOff?) -> Daemon? {
        var items: [MHD_OptionItem] = [
            // First, as libmicrohttpd asks, so that no message goes to stderr instead.
            MHD_OptionItem(option: .EXTERNAL_LOGGER, value: shim_message_forwarder(), ptr_value: UnsafeMutableRawPointer(messages.sink)),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: timeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: memoryBytes, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(DaemonCallbacks.requestCompleted, to: Int.self),
                           ptr_value: router),
            tls.map { MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(DaemonCallbacks.tlsConnectionNotice, to: Int.self),
                                     ptr_value: Unmanaged.passUnretained($0).toOpaque()) }
                ?? MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(DaemonCallbacks.connectionNotice, to: Int.self),
                                  ptr_value: Unmanaged.passUnretained(connections).toOpaque()),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: connections.perWorkerLimit, ptr_value: nil),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: unsafeBitCast(DaemonCallbacks.rawURIInspector, to: Int.self), ptr_value: router),
        ]
        if tls != nil {
            // The leaf is picked per handshake by the name the client asks for (SNI).
            items.append(MHD_OptionItem(option: .HTTPS_CERT_CALLBACK, value: 0,
                                        ptr_value: unsafeBitCast(LeafCertificates.certificateCallback, to: UnsafeMutableRawPointer.self)))
        }
        items.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | Daemon.pollingFlag | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_TURBO.rawValue | MHD_USE_ITC.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_UPGRADE.rawValue // WebSocket stubs: a 101 hands the socket over (WebSocketConnection)
        if tls != nil { flags |= MHD_USE_TLS.rawValue }
        return start(flags: UInt32(flags), handler: DaemonCallbacks.accessHandler, context: router, options: &items)
    }

    private init(_ raw: OpaquePointer) { self.raw = raw }

    /// Its identity, as `Connection.daemonAddress` tells it (the certificate callback, a worker's messages).
    var address: UInt { UInt(bitPattern: UnsafeRawPointer(raw)) }

    /// libmicrohttpd's event loop, the same on every platform: poll. In 0.9.75 epoll mode stalls
    /// connections handed over with `MHD_add_connection` once a worker holds about 128 of them
    /// (wrk -c512 fell from ~130k to under 4k req/s, with the connections ESTABLISHED and idle; the
    /// C twin in shared/tools/acceptor_mhd.c shows it without our code); poll holds 116–153k from
    /// 128 to 1,000 connections. poll also has no FD_SETSIZE ceiling, which select would have on
    /// Darwin.
    static var pollingFlag: UInt32 { UInt32(MHD_USE_POLL.rawValue) }

    /// Hands it an accepted socket, which it owns (and on failure closes) from here. False when it
    /// refused it (over its connection limit, or out of memory).
    func add(_ socket: Int32, address: UnsafePointer<sockaddr>, length: socklen_t) -> Bool {
        MHD_add_connection(raw, socket, address, length) == .YES
    }

    /// Stops its thread, closes its connections and frees it; later calls do nothing.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        MHD_stop_daemon(raw)
    }
}

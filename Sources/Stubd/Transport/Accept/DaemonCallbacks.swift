import CMicroHTTPD
import Foundation
import StubdCore
import StubdEngine
import Synchronization

/// The C entry points handed to each libmicrohttpd daemon. They live in a library file: in
/// `main.swift` Swift 6 would insert a main-actor check that traps on libmicrohttpd's worker threads.
enum DaemonCallbacks {
    // The router outlives every daemon (StubServer releases it after stopping them), so a call
    // borrows it without a retain: both workers retaining one object write to one cache line.
    static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadSize, conCls in
        Unmanaged<RequestRouter>.fromOpaque(cls!)._withUnsafeGuaranteedRef {
            $0.handle(Connection(connection!), url!, method!, version, uploadData, uploadSize!, RequestSlotStore(conCls!)) == .carryOn ? .YES : .NO
        }
    }

    static let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
        // Its connection waits for the next head from now (see `HeadWatch`).
        if let connection { Connection(connection).withState { state in if let head = state.head { state.heads?.waiting(head) } } }
        guard let conCls, conCls.pointee != nil else { return }
        Unmanaged<RequestRouter>.fromOpaque(cls!)._withUnsafeGuaranteedRef { router in
            // Ended with its held answer unsent: the client left while it was held (a `delay`), and
            // libmicrohttpd, seeing it gone on the resume, never called the handler for it.
            if case .tracked(let context) = RequestSlot(conCls.pointee),
               case .release(unfinished: .answer(let answer, _)?) = context.handle(.completed) {
                router.abandonUnsentWebSocket(answer, context)
            }
            RequestSlot.release(conCls.pointee)
            conCls.pointee = nil
            _ = router.active.subtract(1, ordering: .relaxed)
        }
    }

    /// Sees the request target before libmicrohttpd decodes it or splits its query (`cls` is the router).
    ///
    /// A NUL, as `%00` or as a raw byte, would cut the decoded C string short: in the path
    /// `/a.json%00.png` would read as `/a.json`, in the query `q=a%00b` as `q=a`. Both are refused,
    /// naming the part: a stub matches text, and libmicrohttpd hands each query value over as a C
    /// string, so a NUL in one cannot reach a route whole; a 400 says so where a cut value would
    /// quietly match something else. A raw NUL ends the string libmicrohttpd gives here early: the
    /// real end is followed by the version (`HTTP/1.1` and the end of the line), any other is a NUL
    /// inside the target. (libmicrohttpd 1.0 closes the connection on a raw NUL before calling here.)
    ///
    /// libmicrohttpd records each query parameter in the connection's memory (`connectionMemoryBytes`,
    /// 16 KiB), and 0.9.75 closes the connection without a word when they do not fit (issue 38:
    /// ~236 parameters; 230 got its 431 with the status line twice). So a query with more than
    /// `RequestRouter.maxQueryParameters` allows for a target of its length is withheld from
    /// libmicrohttpd's parser here (`MHDReadBuffer.withholdQuery`, the one write into its memory, and
    /// why 0.9.75 leaves no other way), and the request answered 414 naming the limit. libmicrohttpd 1.0
    /// parses them anyway (nothing is withheld there) and answers 431 itself when they do not fit.
    static let rawURIInspector: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, _ in
        guard let uri else { return nil }
        // libc's scans (vectorised) rather than a loop of ours over each byte: every request passes here.
        let length = strlen(uri)
        let end = uri + length
        let query = UnsafePointer(memchr(uri, 0x3F, length)?.assumingMemoryBound(to: CChar.self)) // "?"
        if let nul = strstr(uri, "%00") {
            return (query.map { $0 < UnsafePointer(nul) } == true ? RequestSlot.nulInQuery : RequestSlot.nulInPath).raw
        }
        if !MHDReadBuffer.isVersionAfter(end) { return (query != nil ? RequestSlot.nulInQuery : RequestSlot.nulInPath).raw }
        // More than 16 parameters take more than 32 bytes: a shorter query is not counted.
        guard let query, end - query > 32, let cls else { return nil }
        var parameters = 1
        var p = query + 1
        while let amp = strchr(p, 0x26) { parameters += 1; p = UnsafePointer(amp) + 1 } // "&"
        if parameters > Unmanaged<RequestRouter>.fromOpaque(cls)._withUnsafeGuaranteedRef({ $0.maxQueryParameters(targetLength: length) }) {
            MHDReadBuffer.withholdQuery(query)
            return RequestSlot.tooManyParameters(parameters, targetLength: length).raw
        }
        return nil
    }

    /// Creates and releases each connection's `ConnectionState`.
    static let connectionNotice: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        let budget = Unmanaged<ConnectionBudget>.fromOpaque(cls!).takeUnretainedValue()
        guard let socketContext else { return }
        if code == .CONNECTION_NOTIFY_STARTED {
            budget.started()
            let state = ConnectionState()
            if let connection { watchHead(state, Connection(connection), budget) }
            socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        } else {
            if let raw = socketContext.pointee {
                let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
                if let head = state.head { budget.heads.ended(head) }
                socketContext.pointee = nil
            }
            budget.closed()
        }
    }

    /// Puts a new connection in the watch for slow heads.
    private static func watchHead(_ state: ConnectionState, _ connection: borrowing Connection, _ budget: ConnectionBudget) {
        let fd = connection.fd
        guard fd >= 0 else { return }
        state.head = budget.heads.began(fd: fd, connection: connection.address)
        state.heads = budget.heads
    }

    /// As `connectionNotice`, for the TLS workers: a tunnel's connection also takes the session its
    /// CONNECT named (see `TunnelHandOff`).
    static let tlsConnectionNotice: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        let handOff = Unmanaged<TunnelHandOff>.fromOpaque(cls!).takeUnretainedValue()
        guard let socketContext else { return }
        if code == .CONNECTION_NOTIFY_STARTED {
            handOff.budget.started()
            let state = ConnectionState()
            if let raw = connection {
                let connection = Connection(raw)
                watchHead(state, connection, handOff.budget)
                let fd = connection.fd
                state.tunnelSession = handOff.claimSession(fd: fd)
                handOff.budget.handshakes.began(fd)
                state.handshake = (handOff.budget.handshakes, fd)
            }
            socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        } else {
            if let raw = socketContext.pointee {
                let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
                state.requestArrived()
                if let head = state.head { handOff.budget.heads.ended(head) }
                socketContext.pointee = nil
            }
            handOff.budget.closed()
        }
    }
}

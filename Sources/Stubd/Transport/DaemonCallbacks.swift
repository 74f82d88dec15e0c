import CMicroHTTPD
import Foundation
import StubdCore
import Synchronization

/// The C entry points handed to each libmicrohttpd daemon. They live in a library file: in
/// `main.swift` Swift 6 would insert a main-actor check that traps on libmicrohttpd's worker threads.
enum DaemonCallbacks {
    // The router outlives every daemon (StubServer releases it after stopping them), so a call
    // borrows it without a retain: both workers retaining one object write to one cache line.
    static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, conCls in
        Unmanaged<RequestRouter>.fromOpaque(cls!)._withUnsafeGuaranteedRef {
            $0.handle(connection!, url!, method!, uploadData, uploadSize!, conCls!)
        }
    }

    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
        guard let conCls, conCls.pointee != nil else { return }
        if case .tracked(let context) = RequestSlot(conCls.pointee) { context.lifecycle.move { $0.complete() } }
        RequestSlot.release(conCls.pointee)
        conCls.pointee = nil
        Unmanaged<RequestRouter>.fromOpaque(cls!)._withUnsafeGuaranteedRef { _ = $0.active.subtract(1, ordering: .relaxed) }
    }

    /// Sees the URI before libmicrohttpd decodes it: a `%00` would cut the decoded C string short
    /// (`/a.json%00.png` would read as `/a.json`), so such a request is marked to get a 400.
    static let rawURIInspector: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { _, uri, _ in
        guard let uri else { return nil }
        var p = uri
        while p.pointee != 0 {
            if p.pointee == 0x25, p[1] == 0x30, p[2] == 0x30 { return RequestSlot.nulInPath.raw } // "%00"
            p += 1
        }
        return nil
    }

    /// Creates and releases each connection's `ConnectionState`.
    static let connectionNotice: MHD_NotifyConnectionCallback = { cls, _, socketContext, code in
        let budget = Unmanaged<ConnectionBudget>.fromOpaque(cls!).takeUnretainedValue()
        guard let socketContext else { return }
        if code == .CONNECTION_NOTIFY_STARTED {
            budget.started()
            socketContext.pointee = Unmanaged.passRetained(ConnectionState()).toOpaque()
        } else {
            budget.closed()
            if let raw = socketContext.pointee {
                Unmanaged<ConnectionState>.fromOpaque(raw).release()
                socketContext.pointee = nil
            }
        }
    }

    /// As `connectionNotice`, for the TLS workers: a tunnel's connection also takes the session its
    /// CONNECT named (see `TunnelHandOff`).
    static let tlsConnectionNotice: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        let handOff = Unmanaged<TunnelHandOff>.fromOpaque(cls!).takeUnretainedValue()
        guard let socketContext else { return }
        if code == .CONNECTION_NOTIFY_STARTED {
            handOff.budget.started()
            let state = ConnectionState()
            if let connection {
                let fd = shim_connection_fd(connection)
                state.tunnelSession = handOff.claimSession(fd: fd)
                handOff.budget.handshakes.began(fd)
                state.handshake = (handOff.budget.handshakes, fd)
            }
            socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        } else {
            if let raw = socketContext.pointee { Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue().requestArrived() }
            handOff.budget.closed()
            if let raw = socketContext.pointee {
                Unmanaged<ConnectionState>.fromOpaque(raw).release()
                socketContext.pointee = nil
            }
        }
    }
}

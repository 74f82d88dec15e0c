import CMicroHTTPD
import Foundation
import StubdCore
import Synchronization

/// The C entry points handed to each libmicrohttpd daemon. They live in a library file: in
/// `main.swift` Swift 6 would insert a main-actor check that traps on libmicrohttpd's worker threads.
enum DaemonCallbacks {
    static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, conCls in
        Unmanaged<RequestRouter>.fromOpaque(cls!).takeUnretainedValue()
            .handle(connection!, url!, method!, uploadData, uploadSize!, conCls!)
    }

    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
        guard let conCls, let raw = conCls.pointee else { return }
        if raw != plainRequest { Unmanaged<RequestContext>.fromOpaque(raw).release() }
        conCls.pointee = nil
        Unmanaged<RequestRouter>.fromOpaque(cls!).takeUnretainedValue().active.subtract(1, ordering: .relaxed)
    }

    /// Sees the URI before libmicrohttpd decodes it: a `%00` would cut the decoded C string short
    /// (`/a.json%00.png` would read as `/a.json`), so such a request is marked to get a 400.
    static let rawURIInspector: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { _, uri, _ in
        guard let uri else { return nil }
        var p = uri
        while p.pointee != 0 {
            if p.pointee == 0x25, p[1] == 0x30, p[2] == 0x30 { return nulInPath } // "%00"
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
}

/// Marks a request whose raw URI held `%00`.
nonisolated(unsafe) let nulInPath = UnsafeMutableRawPointer(bitPattern: 0x2)!

/// Marks a request that needs no per-request state (no body, no delay, no log): most of them,
/// so most requests allocate nothing of ours.
nonisolated(unsafe) let plainRequest = UnsafeMutableRawPointer(bitPattern: 0x1)!

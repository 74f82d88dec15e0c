import CMicroHTTPD
import StubdCore

/// Per-connection state, from libmicrohttpd's "started" notice for a connection to its "closed" one.
///
/// It keeps the connection's last per-request response (a canned answer plus rate-limit headers) to
/// send again with new header values. Building a response and its headers takes about ten
/// allocations, which was most of what a quota'd route cost over a plain one. Reuse is safe because a
/// connection answers its requests one after another: when the next request arrives, the previous
/// answer has been sent, and no other connection ever sees this response.
final class ConnectionState {
    private var variant: OpaquePointer?
    private var base: PreparedResponse?
    private var extra: [(name: String, value: String)] = []

    /// `prepared` with `headers` added, as a response the caller queues but does not destroy.
    func variant(of prepared: PreparedResponse, adding headers: [(name: String, value: String)]) -> OpaquePointer {
        if let variant, base === prepared, headers.count == extra.count,
           zip(headers, extra).allSatisfy({ $0.name == $1.name }) {
            for i in headers.indices where headers[i].value != extra[i].value {
                extra[i].name.withCString { name in
                    var value = headers[i].value
                    // Same length (r=7 after r=8): overwritten in place. libmicrohttpd 0.9.75 keeps each
                    // value in its own heap copy and writes out exactly `value_size` bytes of it, so
                    // this is what delete-and-add would produce, without their six allocations.
                    if !value.isEmpty, value.utf8.count == extra[i].value.utf8.count, let stored = MHD_get_response_header(variant, name) {
                        value.withUTF8 { UnsafeMutableRawPointer(mutating: stored).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                    } else {
                        _ = extra[i].value.withCString { MHD_del_response_header(variant, name, $0) }
                        _ = value.withCString { MHD_add_response_header(variant, name, $0) }
                    }
                }
            }
            extra = headers
            return variant
        }
        if let variant { MHD_destroy_response(variant) }
        let fresh = prepared.variant(adding: headers)
        (variant, base, extra) = (fresh, prepared, headers)
        return fresh
    }

    deinit {
        if let variant { MHD_destroy_response(variant) }
    }
}

/// Creates and releases each connection's `ConnectionState`.
let connectionNotice: MHD_NotifyConnectionCallback = { _, _, socketContext, code in
    guard let socketContext else { return }
    if code == .CONNECTION_NOTIFY_STARTED {
        socketContext.pointee = Unmanaged.passRetained(ConnectionState()).toOpaque()
    } else if let raw = socketContext.pointee {
        Unmanaged<ConnectionState>.fromOpaque(raw).release()
        socketContext.pointee = nil
    }
}

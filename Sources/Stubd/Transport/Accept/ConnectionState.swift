import CMicroHTTPD
import Foundation
import StubdCore
import HTTPTypes

/// Per-connection state, from libmicrohttpd's "started" notice for a connection to its "closed" one.
///
/// It keeps the connection's last per-request response (a canned answer plus rate-limit headers) to
/// send again with new header values. Building a response and its headers takes about ten
/// allocations, which was most of what a quota'd route cost over a plain one. Reuse is safe because a
/// connection answers its requests one after another: when the next request arrives, the previous
/// answer has been sent, and no other connection ever sees this response.
///
/// A changed header value is swapped through libmicrohttpd's API (`MHD_del_response_header`, then
/// `MHD_add_response_header`): the strings it keeps are its own, never written by us.
final class ConnectionState {
    /// The session named by the CONNECT that opened this tunnel (its proxy user name), if any.
    var tunnelSession: String?
    /// A TLS connection that has sent no request yet: watched, so that it can be evicted when the
    /// server is full (see `HandshakeWatch`).
    var handshake: (watch: HandshakeWatch, fd: Int32)?

    /// Its place in the watch for slow heads (see `HeadWatch`), and the watch.
    var head: HeadWatch.Entry?
    var heads: HeadWatch?

    /// A request's head is in: the connection is inside a request, and its handshake is over.
    func requestArrived() {
        if let head { HeadWatch.arrived(head) }
        guard let handshake else { return }
        handshake.watch.ended(handshake.fd)
        self.handshake = nil
    }
    private var variant: OpaquePointer?
    private var base: PreparedResponse?
    /// What `variant` carries beyond `base`'s headers.
    private var extra: Extra = .list([:])

    private enum Extra {
        case list(HTTPFields)
        /// Which quota's `RateLimit-Policy` it carries (the same for every answer under that quota):
        /// only `RateLimit` changes from one answer to the next.
        case rateLimit(quota: ObjectIdentifier)
    }

    /// `prepared` with `headers` added, as a response the caller queues but does not destroy.
    func variant(of prepared: PreparedResponse, adding headers: ExtraHeaders) -> OpaquePointer {
        if let variant, base === prepared {
            if let advert = headers.rateLimit {
                if case .rateLimit(let quota) = extra, quota == advert.quotaIdentity {
                    Self.replaceRateLimit(in: variant, with: advert)
                    return variant
                }
            } else if case .list(let current) = extra, Self.sameNames(current, headers.list) {
                Self.replaceValues(in: variant, current, headers.list)
                extra = .list(headers.list)
                return variant
            }
        }
        if let variant { MHD_destroy_response(variant) }
        let list = headers.list
        let fresh = prepared.variant(adding: list)
        (variant, base) = (fresh, prepared)
        if let advert = headers.rateLimit {
            extra = .rateLimit(quota: advert.quotaIdentity)
        } else {
            extra = .list(list)
        }
        return fresh
    }

    /// Sets `RateLimit` to the advert's value, formatted on the stack (no string for it).
    private static func replaceRateLimit(in response: OpaquePointer, with advert: RateLimitAdvert) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: advert.maxValueLength + 1) { buffer in
            let value = buffer.baseAddress!
            let length = advert.writeValue(to: value)
            value[length] = 0
            value.withMemoryRebound(to: CChar.self, capacity: length + 1) { setValue(in: response, name: "RateLimit", to: $0) }
        }
    }

    private static func replaceValues(in response: OpaquePointer, _ current: HTTPFields, _ new: HTTPFields) {
        for i in new.indices where new[i].value != current[i].value {
            new[i].name.rawName.withCString { name in
                new[i].value.withCString { value in setValue(in: response, name: name, to: value) }
            }
        }
    }

    /// Replaces header `name`'s value with `value` (zero-terminated) when it differs: libmicrohttpd
    /// deletes the old header (found by name and value) and adds the new one.
    private static func setValue(in response: OpaquePointer, name: UnsafePointer<CChar>, to value: UnsafePointer<CChar>) {
        guard let stored = MHD_get_response_header(response, name) else { return }
        if strcmp(stored, value) == 0 { return }
        // The call reads `stored` to find the header before it frees it.
        MHD_del_response_header(response, name, stored)
        MHD_add_response_header(response, name, value)
    }

    private static func sameNames(_ a: HTTPFields, _ b: HTTPFields) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name }
    }

    deinit {
        if let variant { MHD_destroy_response(variant) }
    }
}

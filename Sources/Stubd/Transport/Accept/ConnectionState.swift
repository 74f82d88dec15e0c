import CMicroHTTPD
import Foundation
import StubdCore
import StubdEngine
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
    /// The last per-request response: `base`'s body with `extra`'s headers. An object, so the
    /// response (non-copyable) can be borrowed from it while its headers change.
    private final class Kept {
        let response: MHDResponse
        let base: PreparedResponse
        var extra: Extra
        init(_ response: consuming MHDResponse, base: PreparedResponse, extra: Extra) {
            self.response = response
            self.base = base
            self.extra = extra
        }
    }
    private var kept: Kept?

    private enum Extra {
        case list(HTTPFields)
        /// Which quota's `RateLimit-Policy` it carries (the same for every answer under that quota):
        /// only `RateLimit` changes from one answer to the next.
        case rateLimit(quota: ObjectIdentifier)
    }

    /// Queues `prepared` with `headers` added, reusing the kept response when it differs only in values.
    func queueVariant(of prepared: PreparedResponse, adding headers: ExtraHeaders, status: Int,
                      on connection: borrowing Connection) -> CallResult {
        if let kept, kept.base === prepared {
            if let advert = headers.rateLimit {
                if case .rateLimit(let quota) = kept.extra, quota == advert.quotaIdentity {
                    Self.replaceRateLimit(in: kept.response, with: advert)
                    return connection.queue(kept.response, status: status)
                }
            } else if case .list(let current) = kept.extra, Self.sameNames(current, headers.list) {
                Self.replaceValues(in: kept.response, current, headers.list)
                kept.extra = .list(headers.list)
                return connection.queue(kept.response, status: status)
            }
        }
        let list = headers.list
        let fresh = Kept(prepared.variant(adding: list), base: prepared,
                         extra: headers.rateLimit.map { .rateLimit(quota: $0.quotaIdentity) } ?? .list(list))
        // The response kept before is destroyed with its keeper (its request was answered already).
        kept = fresh
        return connection.queue(fresh.response, status: status)
    }

    /// Sets `RateLimit` to the advert's value, formatted on the stack (no string for it).
    private static func replaceRateLimit(in response: borrowing MHDResponse, with advert: RateLimitAdvert) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: advert.maxValueLength + 1) { buffer in
            let value = buffer.baseAddress!
            let length = advert.writeValue(to: value)
            value[length] = 0
            value.withMemoryRebound(to: CChar.self, capacity: length + 1) { response.replace("RateLimit", with: $0) }
        }
    }

    private static func replaceValues(in response: borrowing MHDResponse, _ current: HTTPFields, _ new: HTTPFields) {
        for i in new.indices where new[i].value != current[i].value {
            new[i].name.rawName.withCString { name in
                new[i].value.withCString { value in response.replace(name, with: value) }
            }
        }
    }

    private static func sameNames(_ a: HTTPFields, _ b: HTTPFields) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name }
    }
}

import CMicroHTTPD
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
/// A header value of the same length as the one it replaces (r=7 after r=8) is overwritten in place:
/// libmicrohttpd 0.9.75 keeps each value in its own heap copy and writes out exactly `value_size`
/// bytes of it, so this sends what delete-and-add would, without their six allocations.
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
        /// Which quota's `RateLimit-Policy` it carries, and the current `RateLimit` value: where
        /// libmicrohttpd keeps it (looking it up by name cost as much as writing it), and its length.
        case rateLimit(quota: ObjectIdentifier, value: UnsafeMutablePointer<CChar>, length: Int)
    }

    /// `prepared` with `headers` added, as a response the caller queues but does not destroy.
    func variant(of prepared: PreparedResponse, adding headers: ExtraHeaders) -> OpaquePointer {
        if let variant, base === prepared {
            if let advert = headers.rateLimit {
                if case .rateLimit(let quota, let stored, let length) = extra, quota == advert.quotaIdentity {
                    extra = replaceRateLimit(in: variant, with: advert, stored: stored, currentLength: length)
                    return variant
                }
            } else if case .list(let current) = extra, Self.sameNames(current, headers.list) {
                replaceValues(in: variant, current, headers.list)
                extra = .list(headers.list)
                return variant
            }
        }
        if let variant { MHD_destroy_response(variant) }
        let list = headers.list
        let fresh = prepared.variant(adding: list)
        (variant, base) = (fresh, prepared)
        if let advert = headers.rateLimit, let value = list[.rateLimit],
           let stored = MHD_get_response_header(fresh, "RateLimit") {
            extra = .rateLimit(quota: advert.quotaIdentity, value: UnsafeMutablePointer(mutating: stored), length: value.utf8.count)
        } else {
            extra = .list(list)
        }
        return fresh
    }

    /// Writes the new `RateLimit` value into `response`: over `stored` when it has the same length,
    /// else as a new header.
    private func replaceRateLimit(in response: OpaquePointer, with advert: RateLimitAdvert,
                                  stored: UnsafeMutablePointer<CChar>, currentLength: Int) -> Extra {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: advert.maxValueLength + 1) { buffer in
            let value = buffer.baseAddress!
            let length = advert.writeValue(to: value)
            value[length] = 0
            return value.withMemoryRebound(to: CChar.self, capacity: length + 1) { value in
                if length == currentLength {
                    stored.update(from: value, count: length)
                    return .rateLimit(quota: advert.quotaIdentity, value: stored, length: length)
                }
                Self.setValue(in: response, name: "RateLimit", to: value, length: length, currentLength: currentLength)
                guard let fresh = MHD_get_response_header(response, "RateLimit") else { return .list([:]) }
                return .rateLimit(quota: advert.quotaIdentity, value: UnsafeMutablePointer(mutating: fresh), length: length)
            }
        }
    }

    private func replaceValues(in response: OpaquePointer, _ current: HTTPFields, _ new: HTTPFields) {
        for i in new.indices where new[i].value != current[i].value {
            new[i].name.rawName.withCString { name in
                new[i].value.withCString { value in
                    Self.setValue(in: response, name: name, to: value, length: new[i].value.utf8.count,
                                  currentLength: current[i].value.utf8.count)
                }
            }
        }
    }

    /// Replaces header `name`'s value (`length` bytes, zero-terminated): in place when the length
    /// is the same, else by deleting and adding the header.
    private static func setValue(in response: OpaquePointer, name: UnsafePointer<CChar>, to value: UnsafePointer<CChar>,
                                 length: Int, currentLength: Int) {
        guard let stored = MHD_get_response_header(response, name) else { return }
        if length == currentLength {
            UnsafeMutablePointer(mutating: stored).update(from: value, count: length)
        } else {
            // Deleting frees `stored`, which the call reads first to find the header.
            MHD_del_response_header(response, name, stored)
            MHD_add_response_header(response, name, value)
        }
    }

    private static func sameNames(_ a: HTTPFields, _ b: HTTPFields) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name }
    }

    deinit {
        if let variant { MHD_destroy_response(variant) }
    }
}

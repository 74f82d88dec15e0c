import CMicroHTTPD
import Foundation
import StubdCore
import Synchronization

/// A canned answer in libmicrohttpd's form: the body copied once into memory that never moves,
/// headers added once, then queued by any number of requests at once (MHD reference-counts it).
final class PreparedResponse: @unchecked Sendable {
    let canned: CannedResponse
    let response: OpaquePointer
    let body: UnsafeMutableRawPointer
    let length: Int
    /// The canned headers as C strings, converted once: the shared response and every variant add them.
    private let cHeaders: [(name: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>)]

    init(_ canned: CannedResponse) {
        self.canned = canned
        let length = canned.body.count
        let body = UnsafeMutableRawPointer.allocate(byteCount: max(1, length), alignment: 16)
        canned.body.withUnsafeBytes { if length > 0 { body.copyMemory(from: $0.baseAddress!, byteCount: length) } }
        self.length = length
        self.body = body
        cHeaders = canned.headers.map { (strdup($0.name)!, strdup($0.value)!) }
        response = MHD_create_response_from_buffer(length, body, .RESPMEM_PERSISTENT)!
        for header in cHeaders { MHD_add_response_header(response, header.name, header.value) }
    }

    /// The same body with per-request headers (rate limits), sharing the buffer; the caller destroys it after queueing.
    func variant(adding extra: [(name: String, value: String)]) -> OpaquePointer {
        let r = MHD_create_response_from_buffer(length, body, .RESPMEM_PERSISTENT)!
        for header in cHeaders { MHD_add_response_header(r, header.name, header.value) }
        // withCString, not the implicit conversion: that allocates a copy of every small string.
        for header in extra {
            header.name.withCString { name in header.value.withCString { value in _ = MHD_add_response_header(r, name, value) } }
        }
        return r
    }

    /// Only after MHD_stop_daemon: no request can still be sending from the buffer.
    func destroy() {
        MHD_destroy_response(response)
        body.deallocate()
        for header in cHeaders { free(header.name); free(header.value) }
    }
}

/// Every prepared answer of this server, kept until it stops. A reload's old answers are kept too:
/// a worker may still be queueing one, and 0.9.75 has no way to know when it is done.
final class ResponseStore: Sendable {
    private let all = Mutex<[PreparedResponse]>([])

    func prepared(_ canned: CannedResponse) -> PreparedResponse {
        if let handle = canned.transportHandle {
            return Unmanaged<PreparedResponse>.fromOpaque(handle).takeUnretainedValue()
        }
        let fresh = PreparedResponse(canned)
        let handle = Unmanaged.passUnretained(fresh).toOpaque()
        let winner = canned.adoptTransportHandle(handle)
        if winner == handle {
            all.withLock { $0.append(fresh) }
            return fresh
        }
        fresh.destroy()
        return Unmanaged<PreparedResponse>.fromOpaque(winner).takeUnretainedValue()
    }

    /// Prepares a whole catalog before it is published, so the first request pays nothing.
    func prepare(_ catalog: StubCatalog) {
        for route in catalog.routes { for r in route.responses { _ = prepared(r) } }
    }

    func destroyAll() {
        let items = all.withLock { list in defer { list.removeAll() }; return list }
        for item in items { item.destroy() }
    }
}

/// A one-off answer (errors, admin replies, quota rejections): copied into MHD, destroyed after queueing.
func makeResponse(_ g: GeneratedResponse) -> OpaquePointer {
    let r = g.body.withUnsafeBytes { raw in
        MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)!
    }
    for header in g.headers { MHD_add_response_header(r, header.name, header.value) }
    return r
}

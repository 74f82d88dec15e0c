import CMicroHTTPD
import Foundation
import StubdCore
import Synchronization

/// A canned answer in libmicrohttpd's form: the body copied once into memory that never moves,
/// headers added once, then queued by any number of requests at once.
///
/// Lifetime: libmicrohttpd reference-counts a response (each queueing holds one until that
/// connection is done with it). This object holds one more; its `deinit` gives that up, and the
/// free callback frees the body once the last connection is done. A variant (the same body with
/// rate-limit headers) holds a retain on this object until libmicrohttpd frees the variant, so the
/// shared body outlives every response that points into it. A request holds this object from lookup
/// to queueing, so a reload can drop it at any moment.
final class PreparedResponse: @unchecked Sendable {
    let canned: CannedResponse
    let response: OpaquePointer
    private let body: UnsafeMutableRawPointer
    private let length: Int
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
        response = MHD_create_response_from_buffer_with_free_callback_cls(length, body, { body in body?.deallocate() }, body)!
        for header in cHeaders { MHD_add_response_header(response, header.name, header.value) }
    }

    /// The same body with per-request headers (rate limits), sharing the buffer; the caller destroys it after queueing.
    func variant(adding extra: [(name: String, value: String)]) -> OpaquePointer {
        let owner = Unmanaged.passRetained(self).toOpaque()
        let r = MHD_create_response_from_buffer_with_free_callback_cls(length, body, { owner in
            Unmanaged<PreparedResponse>.fromOpaque(owner!).release()
        }, owner)!
        for header in cHeaders { MHD_add_response_header(r, header.name, header.value) }
        // withCString, not the implicit conversion: that allocates a copy of every small string.
        for header in extra {
            header.name.withCString { name in header.value.withCString { value in _ = MHD_add_response_header(r, name, value) } }
        }
        return r
    }

    deinit {
        // libmicrohttpd copied the headers; the body goes when the last connection using it is done.
        for header in cHeaders { free(header.name); free(header.value) }
        MHD_destroy_response(response)
    }
}

/// One catalog's answers in libmicrohttpd's form, indexed like `StubCatalog.responses`.
final class PreparedCatalog: Sendable {
    let generation: UInt64
    let answers: [PreparedResponse]

    init(_ catalog: StubCatalog) {
        generation = catalog.generation
        answers = catalog.responses.map(PreparedResponse.init)
    }

    init() {
        generation = 0
        answers = []
    }
}

/// The prepared answers of the catalog in force. Replaced as a whole by a reload; the old ones go
/// as soon as no request holds them (see `PreparedResponse` for how queued ones are kept).
final class ResponseStore: Sendable {
    private let current = PublishedValue(PreparedCatalog())
    /// Prepare-and-install is one step: two reloads at once must not leave the engine on one
    /// catalog and this store on the other.
    private let installing = Locked(())

    /// The prepared form of a canned answer: the catalog's, or a one-off for an answer outside the
    /// catalog in force (a runtime stub's, or one matched just before a reload).
    func prepared(_ canned: CannedResponse) -> PreparedResponse {
        if let slot = canned.slot {
            let prepared = current.value
            if prepared.generation == slot.generation { return prepared.answers[slot.index] }
        }
        return PreparedResponse(canned)
    }

    /// Prepares every answer of `catalog` (so the first request pays nothing), then runs `install`.
    func install(_ catalog: StubCatalog, _ install: () -> Void) {
        let prepared = PreparedCatalog(catalog)
        installing.withLock { _ in
            current.publish(prepared)
            install()
        }
    }

    /// After the daemons stop: every prepared answer is released.
    func releaseAll() {
        current.publish(PreparedCatalog())
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

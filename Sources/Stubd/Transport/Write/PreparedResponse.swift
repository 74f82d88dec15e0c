import Foundation
import StubdCore
import StubdEngine
import Synchronization
import HTTPTypes

/// A canned answer in libmicrohttpd's form: the body copied once into memory that never moves,
/// headers added once, then queued by any number of requests at once.
///
/// Lifetime: libmicrohttpd reference-counts a response (each queueing holds one until that
/// connection is done with it). This object holds one more (`response`, given up with it), and the
/// free callback frees the body once the last connection is done. A variant (the same body with
/// rate-limit headers) holds a retain on this object until libmicrohttpd frees the variant, so the
/// shared body outlives every response that points into it. A request holds this object from lookup
/// to queueing, so a reload can drop it at any moment. The front keeps it (`PreparedAnswers`, one
/// table per catalog), never the engine's `CannedResponse`.
final class PreparedResponse: @unchecked Sendable {
    let response: MHDResponse
    private let body: UnsafeMutableRawPointer
    /// The body's length in bytes.
    let length: Int
    /// The canned headers as C strings, converted once: the shared response and every variant add them.
    private let cHeaders: [(name: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>)]

    init(_ canned: CannedResponse) {
        let length = canned.body.count
        let body = UnsafeMutableRawPointer.allocate(byteCount: max(1, length), alignment: 16)
        canned.body.withUnsafeBytes { if length > 0 { body.copyMemory(from: $0.baseAddress!, byteCount: length) } }
        self.length = length
        self.body = body
        cHeaders = canned.headers.map { (strdup($0.name.rawName)!, strdup($0.value)!) }
        response = MHDResponse(sharing: body, length: length, free: { body in body?.deallocate() }, context: body)
        for header in cHeaders { response.add(header.name, header.value) }
    }

    /// The same body with per-request headers (rate limits), sharing the buffer; the caller destroys it after queueing.
    func variant(adding extra: HTTPFields) -> MHDResponse {
        let owner = Unmanaged.passRetained(self).toOpaque()
        let r = MHDResponse(sharing: body, length: length, free: { owner in
            Unmanaged<PreparedResponse>.fromOpaque(owner!).release()
        }, context: owner)
        for header in cHeaders { r.add(header.name, header.value) }
        // withCString, not the implicit conversion: that allocates a copy of every small string.
        for header in extra {
            header.name.rawName.withCString { name in header.value.withCString { value in r.add(name, value) } }
        }
        return r
    }

    deinit {
        // libmicrohttpd copied the headers; `response` is destroyed after this, and the body goes
        // when the last connection using it is done.
        for header in cHeaders { free(header.name); free(header.value) }
    }
}

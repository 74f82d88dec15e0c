import CMicroHTTPD
import Foundation
import HTTPTypes

/// One libmicrohttpd response: the only holder of its pointer, as `Connection` is of a connection's.
/// Non-copyable, so its `deinit` is the one place it is destroyed: libmicrohttpd reference-counts a
/// response, and each `Connection.queue` holds its own reference until that connection is done with
/// it, so dropping this after queueing is what a response made for one request wants. A response
/// kept for many (`PreparedResponse`, `ConnectionState`) is a stored property of its keeper.
struct MHDResponse: ~Copyable {
    /// For `Connection.queue` only.
    let raw: OpaquePointer

    /// `length` bytes at `body`, not copied; `free` is called with `context` when the last
    /// connection sending it is done.
    init(sharing body: UnsafeMutableRawPointer, length: Int, free: @convention(c) (UnsafeMutableRawPointer?) -> Void,
         context: UnsafeMutableRawPointer) {
        raw = MHD_create_response_from_buffer_with_free_callback_cls(length, body, free, context)!
    }

    /// A copy of `bytes`.
    init(copying bytes: UnsafeRawBufferPointer) {
        raw = MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)!
    }

    /// A body read by `reader` as the socket takes it (`length` nil: chunked); `release` gets `context` at the end.
    init(length: UInt64?, blockSize: Int, reader: MHD_ContentReaderCallback, context: UnsafeMutableRawPointer,
         release: MHD_ContentReaderFreeCallback) {
        // UInt64.max is libmicrohttpd's MHD_SIZE_UNKNOWN: chunked.
        raw = MHD_create_response_from_callback(length ?? UInt64.max, blockSize, reader, context, release)!
    }

    /// A 101 whose socket `handler` takes with `context` once it is sent; nil when libmicrohttpd refuses.
    init?(upgrade handler: MHD_UpgradeHandler, context: UnsafeMutableRawPointer) {
        guard let raw = MHD_create_response_for_upgrade(handler, context) else { return nil }
        self.raw = raw
    }

    /// Adds a header (libmicrohttpd copies both strings).
    func add(_ name: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>) {
        MHD_add_response_header(raw, name, value)
    }

    func add(_ headers: HTTPFields) {
        for h in headers { MHD_add_response_header(raw, h.name.rawName, h.value) }
    }

    /// Replaces header `name`'s value with `value` (zero-terminated) when it differs: libmicrohttpd
    /// deletes the old header (found by name and value) and adds the new one; the strings it keeps
    /// are its own, never written by us.
    func replace(_ name: UnsafePointer<CChar>, with value: UnsafePointer<CChar>) {
        guard let stored = MHD_get_response_header(raw, name) else { return }
        if strcmp(stored, value) == 0 { return }
        // The call reads `stored` to find the header before it frees it.
        MHD_del_response_header(raw, name, stored)
        MHD_add_response_header(raw, name, value)
    }

    deinit {
        MHD_destroy_response(raw)
    }
}

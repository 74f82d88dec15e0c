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

    /// A body `body` produces as the socket takes it (`length` nil: chunked), pausing the connection
    /// through `pause` when it has nothing yet; closed when the last connection sending it is done.
    init(length: UInt64?, streaming body: any ResponseStream, pause: StreamPause) {
        let reader = Unmanaged.passRetained(StreamReader(body: body, pause: pause)).toOpaque()
        // UInt64.max is libmicrohttpd's MHD_SIZE_UNKNOWN: chunked.
        raw = MHD_create_response_from_callback(length ?? UInt64.max, body.blockSize, StreamReader.read, reader, StreamReader.release)!
    }

    /// A 101 whose socket `upgraded` takes once it is sent; nil when libmicrohttpd refuses. libmicrohttpd
    /// has no release callback for an upgrade response: the handler takes the box back when it runs; a
    /// client gone before the 101 went out leaves the box behind.
    init?(upgradingTo upgraded: any UpgradedConnection) {
        let box = Unmanaged.passRetained(UpgradeBox(upgraded)).toOpaque()
        guard let raw = MHD_create_response_for_upgrade(UpgradeBox.handler, box) else {
            Unmanaged<UpgradeBox>.fromOpaque(box).release()
            return nil
        }
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

/// A stream and its connection's pause, as libmicrohttpd's content reader sees them.
private final class StreamReader {
    let body: any ResponseStream
    let pause: StreamPause

    init(body: any ResponseStream, pause: StreamPause) {
        self.body = body
        self.pause = pause
    }

    static let read: MHD_ContentReaderCallback = { cls, position, buffer, max in
        let reader = Unmanaged<StreamReader>.fromOpaque(cls!).takeUnretainedValue()
        switch reader.body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max), at: position, pause: reader.pause) {
        case .bytes(let n): return n
        case .paused: return 0
        case .end: return -1 // MHD_CONTENT_READER_END_OF_STREAM
        case .cut: return -2 // MHD_CONTENT_READER_END_WITH_ERROR
        }
    }

    static let release: MHD_ContentReaderFreeCallback = { cls in
        Unmanaged<StreamReader>.fromOpaque(cls!).takeRetainedValue().body.close()
    }
}

/// An upgraded connection as libmicrohttpd's upgrade handler sees it.
private final class UpgradeBox {
    let upgraded: any UpgradedConnection
    init(_ upgraded: any UpgradedConnection) { self.upgraded = upgraded }

    static let handler: MHD_UpgradeHandler = { cls, _, _, extraIn, extraSize, socket, handle in
        let upgraded = Unmanaged<UpgradeBox>.fromOpaque(cls!).takeRetainedValue().upgraded
        let extra = extraIn.map { Array(UnsafeRawBufferPointer(start: $0, count: extraSize)) } ?? []
        upgraded.start(socket: socket, extra: extra, handle: UpgradeHandle(handle!))
    }
}

import CMicroHTTPD
import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// One libmicrohttpd connection, as a request's handler call sees it: read its head, queue an
/// answer, suspend it. The only type that holds libmicrohttpd's connection pointer; the C entry
/// points wrap it as it arrives. Non-copyable, so it cannot outlive the call it was given to:
/// what has to reach the connection later (a held answer's resume, a stream's pause) keeps a
/// `ConnectionHandle`, which can do only that.
struct Connection: ~Copyable {
    fileprivate let raw: OpaquePointer

    /// For the C entry points: libmicrohttpd's pointer, wrapped where it arrives.
    init(_ raw: OpaquePointer) { self.raw = raw }

    /// A connection the watch for slow heads remembers by its address (`address`), or nil for 0.
    init?(address: UInt) {
        guard let raw = OpaquePointer(bitPattern: address) else { return nil }
        self.raw = raw
    }

    /// Its identity, for tables that outlive a call (the watch for slow heads).
    var address: UInt { UInt(bitPattern: UnsafeRawPointer(raw)) }

    /// What the suspension, resumption and a stream's pause need later, from any thread.
    var handle: ConnectionHandle { ConnectionHandle(raw: raw) }

    // MARK: The head

    /// A request header's value as libmicrohttpd keeps it (the first, if it came more than once).
    func header(_ name: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        MHD_lookup_connection_value(raw, .HEADER_KIND, name)
    }

    /// A request header's value as a string.
    func headerString(_ name: String) -> String? {
        MHD_lookup_connection_value(raw, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// Calls `iterator` with each value of `kind` (headers, query arguments); returns how many there
    /// are (with a nil iterator, only counts).
    func values(_ kind: MHD_ValueKind, _ iterator: MHD_KeyValueIterator?, _ cls: UnsafeMutableRawPointer?) -> Int32 {
        MHD_get_connection_values(raw, kind, iterator, cls)
    }

    /// As `values`, with each key's and value's length.
    func valuesWithLengths(_ kind: MHD_ValueKind, _ iterator: MHD_KeyValueIteratorN?, _ cls: UnsafeMutableRawPointer?) -> Int32 {
        MHD_get_connection_values_n(raw, kind, iterator, cls)
    }

    /// The request's header fields, in order. Room for all of them is made at once: appending one by
    /// one grew the storage per header. (Collecting an array first and handing it over whole cost
    /// more: `HTTPFields.replaceSubrange` runs unspecialized for an array, as its subscript's setter
    /// did for its index scans; callgrind, `Benchmarks/instructions.sh`.)
    func headerFields() -> HTTPFields {
        var headers = HTTPFields()
        headers.reserveCapacity(Int(values(.HEADER_KIND, nil, nil)))
        _ = withUnsafeMutablePointer(to: &headers) { valuesWithLengths(.HEADER_KIND, headerCollector, $0) }
        return headers
    }

    /// The request's query arguments, decoded, in order.
    func queryItems() -> [QueryItem] {
        var query: [QueryItem] = []
        _ = withUnsafeMutablePointer(to: &query) { values(.GET_ARGUMENT_KIND, queryCollector, $0) }
        return query
    }

    /// Every value of header `name` (compared without case): a client may send one more than once.
    func headerValues(named name: String) -> [String] {
        var found: (name: String, values: [String]) = (name, [])
        _ = withUnsafeMutablePointer(to: &found) { values(.HEADER_KIND, namedCollector, $0) }
        return found.values
    }

    // MARK: The connection

    /// Its socket, or -1.
    var fd: Int32 { shim_connection_fd(raw) }

    /// Whether it speaks TLS (a TLS worker's connection).
    var isTLS: Bool { shim_connection_is_tls(raw) != 0 }

    /// The client's address, as libmicrohttpd accepted it.
    var clientAddress: UnsafePointer<sockaddr>? { shim_client_address(raw) }

    /// The worker daemon it belongs to, by address.
    var daemonAddress: UInt { UInt(bitPattern: shim_connection_daemon(raw).map { UnsafeRawPointer($0) }) }

    /// Our per-connection state (`DaemonCallbacks.connectionNotice` made it), if any.
    var state: ConnectionState? {
        shim_socket_context(raw).map { Unmanaged<ConnectionState>.fromOpaque($0).takeUnretainedValue() }
    }

    /// `body` with our per-connection state, if any, not retained: the connection holds it for the
    /// call (`DaemonCallbacks.connectionNotice` releases it when the connection closes). For the
    /// calls every request makes, where `state`'s retain and release cost ~90 instructions (issue 40).
    func withState<R>(_ body: (ConnectionState) -> R) -> R? {
        guard let context = shim_socket_context(raw) else { return nil }
        return Unmanaged<ConnectionState>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
    }

    // MARK: Answering

    /// Queues `response` with `status`; the connection holds its own reference until it is sent.
    @inline(__always)
    func queue(_ response: borrowing MHDResponse, status: Int) -> CallResult {
        MHD_queue_response(raw, UInt32(status), response.raw) == .YES ? .carryOn : .close
    }
}

/// A connection as the code that answers it later keeps it (a held answer's end, a stream's pause,
/// `stop()`): copyable and sendable, so a closure can hold it, and it can only suspend the
/// connection, resume it, and tell its socket. libmicrohttpd's rules still hold: suspend on the
/// connection's own thread (inside its handler or a stream's read), resume at most once, from any
/// thread; `RequestRouter.suspend`/`resume` keep that, under one lock.
struct ConnectionHandle: @unchecked Sendable {
    fileprivate let raw: OpaquePointer

    func suspend() { MHD_suspend_connection(raw) }

    func resume() { MHD_resume_connection(raw) }

    /// Its socket, or -1.
    var fd: Int32 { shim_connection_fd(raw) }
}

/// What an upgraded connection (a WebSocket, a relay) keeps of libmicrohttpd's upgrade: it gives the
/// connection back, once, when done with the socket. Sendable, as the pointer it wraps may be given
/// back from any thread.
struct UpgradeHandle: @unchecked Sendable {
    fileprivate let raw: OpaquePointer

    /// For the upgrade handler: libmicrohttpd's `MHD_UpgradeResponseHandle`, wrapped where it arrives.
    init(_ raw: OpaquePointer) { self.raw = raw }

    /// Tells libmicrohttpd the socket is done with; call exactly once.
    func close() { _ = shim_upgrade_close(raw) }
}

/// libmicrohttpd keeps a space before the colon (`X-A : 1`) in the name; HTTP compares names
/// without it. A name that is still not a token (`X(A)`) is left out, as nginx does by default
/// (`ignore_invalid_headers`): the request is answered, that header is not seen.
private let headerCollector: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, _ in
    let fields = cls!.assumingMemoryBound(to: HTTPFields.self)
    guard let key else { return .YES }
    var length = keySize
    while length > 0, key[length - 1] == 0x20 || key[length - 1] == 0x09 { length -= 1 }
    let spelt = UnsafeRawBufferPointer(start: key, count: length)
    guard let name = CommonFieldNames.name(spelt) ?? HTTPField.Name(String(decoding: spelt, as: UTF8.self)) else { return .YES }
    // Bytes that are not UTF-8 read as U+FFFD, as they always have (the journal and the log show
    // text); a value is read up to a NUL, as it always was.
    fields.pointee.append(HTTPField(name: name, value: value.map { String(cString: $0) } ?? ""))
    return .YES
}

private let queryCollector: MHD_KeyValueIterator = { cls, _, key, value in
    let list = cls!.assumingMemoryBound(to: [QueryItem].self)
    if let key { list.pointee.append(QueryItem(name: String(cString: key), value: value.map { String(cString: $0) })) }
    return .YES
}

private let namedCollector: MHD_KeyValueIterator = { cls, _, key, value in
    let found = cls!.assumingMemoryBound(to: (name: String, values: [String]).self)
    guard let key, let value, strcasecmp(key, found.pointee.name) == 0 else { return .YES }
    found.pointee.values.append(String(cString: value))
    return .YES
}

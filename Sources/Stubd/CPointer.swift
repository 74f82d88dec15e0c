/// A C pointer that may cross threads: libmicrohttpd's handles are used under its own rules.
struct CPointer: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }
}

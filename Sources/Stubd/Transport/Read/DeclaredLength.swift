/// A request's `Content-Length` read straight from libmicrohttpd's C string, before any body.
enum DeclaredLength {
    /// Whether a `Content-Length` value announces more than `limit` bytes. Digits past what `Int`
    /// holds (≥ 2^63) are more than any limit, not "unreadable": they get the early 413 too.
    static func exceeds(_ value: UnsafePointer<CChar>, _ limit: Int) -> Bool {
        var n = 0
        var p = value
        while p.pointee == 0x20 || p.pointee == 0x09 { p += 1 }
        while p.pointee >= 0x30, p.pointee <= 0x39 {
            let (tens, overflow) = n.multipliedReportingOverflow(by: 10)
            guard !overflow, tens <= limit - Int(p.pointee - 0x30) else { return true }
            n = tens + Int(p.pointee - 0x30)
            p += 1
        }
        return false
    }
}

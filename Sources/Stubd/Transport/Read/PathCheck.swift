import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// Paths that cannot name a stub, refused before any lookup.
enum PathCheck {
    /// Paths that cannot name a stub: dot segments (`..` however encoded; MHD has decoded it by now),
    /// NUL bytes, and malformed session prefixes.
    static func reject(_ path: String, session: String) -> GeneratedResponse? {
        if path.utf8.first != UInt8(ascii: "/") {
            return .problem(400, title: "Bad path", detail: "a request path starts with '/'")
        }
        if hasDotSegment(path) {
            return .problem(400, title: "Bad path", detail: "'.' and '..' segments are not allowed in a request path")
        }
        if !RequestTarget.isValidSession(session) {
            return .problem(400, title: "Bad session", detail: "a session id is 1–64 letters, digits, '-', '_' or '.'")
        }
        return nil
    }

    /// True for `/../`, `/./`, a trailing `/..` or `/.`, however they were encoded (MHD has decoded them).
    static func hasDotSegment(_ path: String) -> Bool {
        var path = path
        // Over the bytes themselves: iterating `utf8` cost ~100 ns per request, more than the whole scan should.
        return path.withUTF8 { hasDotSegment($0) }
    }

    private static func hasDotSegment(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // A dot segment starts with "/.": most paths have none, and memchr from slash to slash finds
        // that out faster than the byte-by-byte walk below.
        guard startsDotSegmentSomewhere(bytes) else { return false }
        var dots = 0
        var atSegmentStart = true
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if dots == 1 || dots == 2 { return true }
                dots = 0
                atSegmentStart = true
            } else if byte == UInt8(ascii: "."), atSegmentStart || dots > 0 {
                dots += 1
                atSegmentStart = false
            } else {
                dots = 3
                atSegmentStart = false
            }
        }
        return dots == 1 || dots == 2
    }

    /// Whether any "/" is followed by ".".
    private static func startsDotSegmentSomewhere(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset < bytes.count, let slash = memchr(base + offset, Int32(UInt8(ascii: "/")), bytes.count - offset) {
            let at = base.distance(to: UnsafePointer(slash.assumingMemoryBound(to: UInt8.self)))
            if at + 1 < bytes.count, base[at + 1] == UInt8(ascii: ".") { return true }
            offset = at + 1
        }
        return false
    }
}

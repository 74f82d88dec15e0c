import CMicroHTTPD
import Foundation

/// The two places stubd looks past the strings libmicrohttpd 0.9.75 hands over, into the read
/// buffer they were cut from, and the one place it writes there. Everything else reads a request
/// through libmicrohttpd's API; these are here, together, because that API leaves no other way in
/// 0.9.75 (for the query and the folds measured with a C program against it: docs/safe-defaults.md
/// has the figures). 0.9.75 parses a head in place: the request line and each `Name: value` line
/// are cut into C strings inside the buffer it read them into, line after line.
///
/// libmicrohttpd 1.0 (what `brew install libmicrohttpd` gives a Mac) answers those requests itself,
/// so there both are off and stubd neither writes into its memory nor reads its layout. Measured
/// against 1.0.1 built from source on Linux (`scripts/check-libmicrohttpd-1`, docs/safe-defaults.md):
/// a query of 300 to 5,000 bare `&`s gets its `431` once, with `Connection: close`; a raw NUL in the
/// target closes the connection before any callback (its message: "The NUL character is in the
/// request line."); a fold is unfolded into the value (RFC 9112 §5.2).
package enum MHDReadBuffer {
    /// Whether stubd was built against libmicrohttpd 1.0 or later, which answers the heads below
    /// itself (the tests say what it answers otherwise).
    package static let isVersion1 = MHD_VERSION >= 0x01000000

    // MARK: The request target (the URI log callback's `uri`)

    /// Whether libmicrohttpd answers a query with more parameters than fit its memory itself, with
    /// one `431` and a close: 1.0 does (`connection_add_header`); 0.9.75 does not (below).
    static let answersTooManyParameters = isVersion1

    /// Whether libmicrohttpd refuses a raw NUL in the request line itself, before the URI log
    /// callback: 1.0 closes the connection without an answer (`get_request_line_inner`), so a NUL
    /// never reaches stubd, and there is nothing for it to answer. 0.9.75 cuts the target there (0.9.77's
    /// source has no such check either).
    static let refusesNULInTarget = isVersion1

    /// Keeps libmicrohttpd from parsing a query with more parameters than its connection's memory
    /// holds: a NUL written over the byte after `?`, in the request line libmicrohttpd is about to
    /// cut there itself and split into parameters. The one write stubd makes into memory
    /// libmicrohttpd owns.
    ///
    /// Why there is no other way in 0.9.75: the URI log callback is the only call before the
    /// parameters are recorded, it cannot refuse the request, and nothing after it can stop the
    /// split. Each parameter takes a record in the connection's memory pool, and when the pool runs
    /// out, 0.9.75 queues its own 431 and then carries on parsing as if it had not (it sets the
    /// connection's state back to "reading headers" after the error set it to "answering", with
    /// the read buffer already discarded). Measured with the callback only recording (`query_probe`
    /// mode 0, 16 KiB of connection memory, `GET /p?a&a&…`): up to 240 parameters our 414 answers;
    /// from 300 on the client reads 0 bytes and a close; with curl's headers 230 got the 431 with
    /// its status line twice (issue 38). A larger pool moves the threshold but not the failure
    /// (64 KiB: 1,000 to 20,000 parameters, 0 bytes; 256 KiB: from 4,000 on, 0 bytes), because the
    /// request line may take the whole pool. In the source (`MHD_parse_arguments_`), a custom
    /// unescape callback is called for each parameter just before its record is made and cannot
    /// stop the split either, and the strict modes do not limit parameters.
    /// Off where `answersTooManyParameters`.
    static func withholdQuery(_ query: UnsafePointer<CChar>) {
        guard !answersTooManyParameters else { return }
        UnsafeMutablePointer(mutating: query)[1] = 0
    }

    /// Whether the NUL at `end` (where the `uri` string ends) is where libmicrohttpd cut the target
    /// from ` HTTP/1.x` and the line's end, and not a NUL byte the client sent inside the target:
    /// the callback is given a C string, so a raw NUL shortens it, and its length is all it says.
    /// Always true where `refusesNULInTarget`, without a look past `end`.
    static func isVersionAfter(_ end: UnsafePointer<CChar>) -> Bool {
        if refusesNULInTarget { return true }
        // Compared byte by byte, each read only after the one before matched: past a real end lie
        // the version and its own NUL, all inside the line libmicrohttpd has read.
        return end[1] == 0x48 && end[2] == 0x54 && end[3] == 0x54 && end[4] == 0x50 && end[5] == 0x2F // "HTTP/"
            && end[6] >= 0x30 && end[6] <= 0x39 && end[7] == 0x2E && end[8] >= 0x30 && end[8] <= 0x39 && end[9] == 0
    }

    // MARK: Folded header lines

    /// 0.9.75 appends a continuation line (obs-fold, RFC 9112 §5.2) to a copy of the header's
    /// *name*, made elsewhere in the connection's pool; 0.9.77 and later reject or unfold it themselves.
    static let gluesFoldedLines = MHD_VERSION < 0x00097700

    /// Whether a header's name is where its own line was: right after the previous value's line
    /// end and right before its own value. A folded header's name is not.
    ///
    /// Why the header list cannot tell in 0.9.75: a fold leaves a name, a value and a head size
    /// another head gives exactly. Measured (`fold_probe`): `Transfer-: chunked` continued by
    /// ` Encoding` and `Transfer-Encoding:    chunked` (four spaces) both come out as the one
    /// header `Transfer-Encoding` = `chunked` in a head of 59 bytes
    /// (`MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE`), so a byte count cannot find the fold either.
    /// Where the name lies in the buffer is the only evidence left.
    static func isInPlace(key: UnsafePointer<CChar>, _ keySize: Int, value: UnsafePointer<CChar>?,
                          after previousValueEnd: UnsafePointer<CChar>?) -> Bool {
        // The previous line ended "value\0\0" (CR LF both cut), or "value\0" after a bare LF, so
        // this name starts one or two bytes on.
        if let previousValueEnd, key != previousValueEnd + 2, key != previousValueEnd + 1 { return false }
        guard let value else { return true }
        // Between name and value: the cut colon, then only spaces or tabs (libmicrohttpd skips them).
        let gap = value - (key + keySize)
        guard gap >= 1, gap <= 64 else { return false }
        var p = key + keySize + 1
        while p < value {
            guard p.pointee == 0x20 || p.pointee == 0x09 else { return false }
            p += 1
        }
        return true
    }
}

import CMicroHTTPD
import Foundation
import StubdProtocol

/// Where a request's body ends must be beyond doubt, or a second request can hide inside the
/// first (request smuggling, RFC 9112 §6.3 and §11.2). libmicrohttpd 0.9.75 takes the first of two
/// `Content-Length`s and reads the rest as the next request, waits forever on a `Transfer-Encoding`
/// it does not know, and glues an obs-folded line onto the header's name. Each of these is refused
/// before a byte of body is read, and the connection closes after the answer.
struct RequestFraming {
    /// Why a request head cannot be trusted, with the answer it gets.
    enum Problem: Equatable {
        case conflictingLengths
        case lengthWithTransferEncoding
        case unsupportedTransferEncoding(String)
        case foldedHeader(String)
        /// An HTTP/1.1 request with no `Host`, or with more than one (RFC 9112 §3.2: a 400).
        case hostCount(Int)

        var status: Int {
            if case .unsupportedTransferEncoding = self { return 501 }
            return 400
        }

        var title: String {
            switch self {
            case .conflictingLengths, .lengthWithTransferEncoding: return "Ambiguous request length"
            case .unsupportedTransferEncoding: return "Transfer-Encoding not supported"
            case .foldedHeader: return "Folded header"
            case .hostCount(0): return "Missing Host"
            case .hostCount: return "More than one Host"
            }
        }

        var detail: String {
            switch self {
            case .conflictingLengths:
                return "the request has Content-Length headers with different values; send exactly one"
            case .lengthWithTransferEncoding:
                return "the request has both Content-Length and Transfer-Encoding (RFC 9112 §6.1); send one of them"
            case .unsupportedTransferEncoding(let coding):
                return "Transfer-Encoding '\(coding)' is not supported; send 'chunked' or a Content-Length"
            case .foldedHeader(let name):
                return "header '\(name)' continues on a line starting with a space (obs-fold, RFC 9112 §5.2); send each header on one line"
            case .hostCount(let count):
                return "an HTTP/1.1 request carries exactly one Host header (RFC 9112 §3.2); this one has \(count)"
            }
        }
    }

    private var lengths = 0
    private var lengthsDiffer = false
    private var firstLength: [UInt8] = []
    private var encodings: [String] = []
    private var folded: String?

    /// Reads the head libmicrohttpd parsed (`version` as the request line gave it). Requests with
    /// neither header nor a fold cost one pass over the header list and no allocation.
    static func problem(in connection: borrowing Connection, version: UnsafePointer<CChar>?) -> Problem? {
        var scan = Scan()
        _ = withUnsafeMutablePointer(to: &scan) { connection.valuesWithLengths(.HEADER_KIND, scanHeader, $0) }
        // HTTP/1.1 and later 1.x (HTTP/1.0 may leave Host out).
        if scan.hosts != 1, let version, version[5] == 0x31, version[6] == 0x2E, version[7] != 0x30 { return .hostCount(scan.hosts) }
        // Nearly every request: nothing to judge, and no verdict built (its empty arrays and the
        // verdict's checks were ~250 instructions a request, callgrind).
        if !scan.sawLengthOrEncoding, scan.folded == nil { return nil }
        var framing = RequestFraming()
        if scan.sawLengthOrEncoding {
            _ = withUnsafeMutablePointer(to: &framing) { connection.valuesWithLengths(.HEADER_KIND, collectFraming, $0) }
        }
        framing.folded = scan.folded.map { String(cString: $0) }
        return framing.problem
    }

    /// The verdict from the headers that frame the body (and a fold, if one was seen).
    var problem: Problem? {
        if let folded { return .foldedHeader(folded) }
        if let coding = encodings.first(where: { $0.lowercased() != "chunked" }) ?? (encodings.count > 1 ? "chunked, chunked" : nil) {
            return .unsupportedTransferEncoding(coding)
        }
        if !encodings.isEmpty, lengths > 0 { return .lengthWithTransferEncoding }
        if lengthsDiffer { return .conflictingLengths }
        return nil
    }

    /// Tallies one header; exposed for tests that check the verdicts without a socket.
    mutating func add(name: String, value: String) {
        switch name.lowercased() {
        case "content-length":
            let bytes = Array(value.utf8)
            if lengths == 0 { firstLength = bytes } else if bytes != firstLength { lengthsDiffer = true }
            lengths += 1
        case "transfer-encoding":
            encodings.append(value.trimmingCharacters(in: .whitespaces))
        default:
            break
        }
    }

    /// The cheap first pass: is there anything to look at, and is any header folded?
    private struct Scan {
        var sawLengthOrEncoding = false
        var hosts = 0
        var folded: UnsafePointer<CChar>?
        var previousValueEnd: UnsafePointer<CChar>?
    }

    private static let scanHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        let scan = cls!.assumingMemoryBound(to: Scan.self)
        guard let key else { return .YES }
        if (keySize == 14 && strncasecmp(key, "content-length", 14) == 0)
            || (keySize == 17 && strncasecmp(key, "transfer-encoding", 17) == 0) {
            scan.pointee.sawLengthOrEncoding = true
        } else if keySize == 4, strncasecmp(key, "host", 4) == 0 {
            scan.pointee.hosts += 1
        }
        if MHDReadBuffer.gluesFoldedLines, scan.pointee.folded == nil, !MHDReadBuffer.isInPlace(key: key, keySize, value: value, after: scan.pointee.previousValueEnd) {
            scan.pointee.folded = key
        }
        scan.pointee.previousValueEnd = value.map { $0 + valueSize }
        return .YES
    }

    private static let collectFraming: MHD_KeyValueIteratorN = { cls, _, key, _, value, _ in
        guard let key else { return .YES }
        cls!.assumingMemoryBound(to: RequestFraming.self).pointee.add(name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
        return .YES
    }
}

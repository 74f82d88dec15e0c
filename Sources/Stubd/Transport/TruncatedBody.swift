import CMicroHTTPD
import Foundation
import StubdCore
import HTTPTypes

/// A response whose headers promise the whole body but whose reader gives up halfway.
enum TruncatedBody {
    final class Source {
        let bytes: Data
        init(_ bytes: Data) { self.bytes = bytes }
    }

    static let reader: MHD_ContentReaderCallback = { cls, position, buffer, max in
        let source = Unmanaged<Source>.fromOpaque(cls!).takeUnretainedValue()
        let half = UInt64(source.bytes.count / 2)
        guard position < half else { return -2 } // MHD_CONTENT_READER_END_WITH_ERROR
        let n = Int(min(UInt64(max), half - position))
        source.bytes.withUnsafeBytes { raw in
            buffer!.update(from: raw.baseAddress!.advanced(by: Int(position)).assumingMemoryBound(to: CChar.self), count: n)
        }
        return n
    }

    static let release: MHD_ContentReaderFreeCallback = { cls in
        Unmanaged<Source>.fromOpaque(cls!).release()
    }

    static func response(for canned: CannedResponse, extraHeaders: HTTPFields) -> OpaquePointer {
        let body = canned.body.isEmpty ? Data(repeating: UInt8(ascii: " "), count: 64) : canned.body
        let source = Unmanaged.passRetained(Source(body)).toOpaque()
        let r = MHD_create_response_from_callback(UInt64(body.count), 4096, reader, source, release)!
        for h in canned.headers + extraHeaders { MHD_add_response_header(r, h.name.rawName, h.value) }
        return r
    }
}

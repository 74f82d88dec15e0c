import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// The `truncatedBody` fault: headers that promise the whole body, a reader that gives up halfway.
final class TruncatedBody: ResponseStream, @unchecked Sendable {
    let bytes: Data
    var blockSize: Int { 4096 }

    init(_ bytes: Data) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer, at position: UInt64, pause: StreamPause) -> StreamRead {
        let half = UInt64(bytes.count / 2)
        guard position < half else { return .cut }
        let n = Int(min(UInt64(buffer.count), half - position))
        bytes.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress!.advanced(by: Int(position)), byteCount: n)
        }
        return .bytes(n)
    }

    static func response(for canned: CannedResponse, extraHeaders: HTTPFields) -> Response {
        let body = canned.body.isEmpty ? Data(repeating: UInt8(ascii: " "), count: 64) : canned.body
        return .stream(status: canned.status, headers: canned.headers + extraHeaders, length: UInt64(body.count),
                       body: TruncatedBody(body))
    }
}

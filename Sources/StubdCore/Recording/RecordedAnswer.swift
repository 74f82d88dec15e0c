import Foundation
import StubdProtocol
import StubdEngine

/// One answer `StubsRecorder` wrote for a request: consecutive different answers to one request
/// become a `responses:` sequence, equal ones one response.
struct RecordedAnswer: Equatable {
    var status: Int
    var headers: [String]
    var file: String?
    /// Only while the answer is being written: a run keeps every answer's digest, not its bytes,
    /// or importing a 1 GB HAR would hold every body it wrote (they are on disk by then).
    var body: Data?
    var bodyDigest: BodyDigest
    /// Not compared: the same answer, slower or faster, is the same answer (no sequence).
    var delay: Duration?
    var fault: Fault? = nil
    /// `file` is a `.ws` script: the response is `websocket:` it (no status: the handshake's is 101).
    var isWebSocket = false
    static func == (a: RecordedAnswer, b: RecordedAnswer) -> Bool {
        a.status == b.status && a.headers == b.headers && a.bodyDigest == b.bodyDigest && a.fault == b.fault
    }

    /// A body's length and a hash of all its bytes (Data's own hash reads only the first 80).
    struct BodyDigest: Equatable {
        var count: Int
        var hash: Int
        init(_ data: Data) {
            var hasher = Hasher()
            data.withUnsafeBytes { hasher.combine(bytes: $0) }
            count = data.count
            hash = hasher.finalize()
        }
    }
}

public import Foundation
package import StubdCore
import StubdEngine

/// Passing requests on to a real API: everything (`stubd record`) or only what no stub answers
/// (`stubd serve --proxy`), writing what comes back into a Stubs folder when a recorder is given.
public struct ForwardingOptions: Sendable {
    public enum Scope: Sendable {
        /// Every request but admin calls (`stubd record`).
        case everything
        /// Only requests no stub answers (`stubd serve --proxy`).
        case misses
    }
    /// The real API: `https://api.openweathermap.org`.
    public var target: URL
    public var scope: Scope
    /// A forward with no answer after this long gets a 504.
    public var timeoutSeconds: Double = 30
    /// Bodies over this are passed to the client but not recorded.
    public var maxBodyBytes: Int = 10 << 20
    /// No answer's body, after decompression, is passed on past this: a 502 if the client has
    /// nothing yet, else the stream is cut (a gzip bomb of 1 MB decodes to 1 GiB).
    public var maxDecodedBytes: Int = ForwardingOptions.defaultMaxDecodedBytes
    public static let defaultMaxDecodedBytes = 256 << 20
    public var caFile: String?
    public var insecure = false
    /// Writes each forwarded exchange into a Stubs folder; nil to only pass through.
    package var recorder: StubsRecorder?
    /// Told what became of each forwarded request (recorded, skipped, not written), for the log.
    public var notice: (@Sendable (String) -> Void)?
    /// Set by the server from its own options: an answer whose headers would not fit is refused.
    var connectionMemoryBytes = 16 * 1024

    public init(target: URL, scope: Scope) {
        self.target = target
        self.scope = scope
    }
}

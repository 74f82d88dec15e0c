/// What happens once a stream has sent what it sends.
package enum StreamEnding: Sendable, Hashable {
    /// Every event, then the end of the body (a chunked response's last chunk).
    case complete
    /// `dropAfter: N`: after N events the connection is closed without ending the body, as a
    /// network that fails mid-stream does (an `EventSource` reconnects, `curl` reports a cut transfer).
    case drop(after: Int)
    /// `stallAfter: N`: after N events nothing more is sent, and the connection is held open (at most
    /// as long as a `hang`), as a server that stopped answering does: the client's read timeout fires.
    case stall(after: Int)

    /// Events sent before the ending; nil for every event.
    package var sentEvents: Int? {
        switch self {
        case .complete: return nil
        case .drop(let n), .stall(let n): return n
        }
    }
}

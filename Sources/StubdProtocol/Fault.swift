/// A transport-level failure to simulate instead of an answer: a response's `fault:` in the
/// manifest, a runtime stub's, and `StubRoute.Response.fault(_:)`'s. On the wire, its raw value.
public enum Fault: String, Codable, Sendable, Hashable, CaseIterable {
    /// An RST: the client sees "connection reset by peer".
    case connectionReset = "connection_reset"
    /// The connection closes before any byte is sent.
    case emptyResponse = "empty_response"
    /// Headers promise a body longer than what is sent before the connection closes.
    case truncatedBody = "truncated_body"
    /// 200 with a JSON content type and a body that does not parse.
    case malformedJSON = "malformed_json"
    /// No answer at all, until the client gives up or the server stops.
    case hang
}

import HTTPTypes
import StubdCore
import StubdEngine

/// What a request is answered with, as a value: a status, headers and a body, or no answer at all.
/// Responders and the router build one; `ResponseWriter` alone turns it into libmicrohttpd calls.
enum Response {
    /// A stub's canned answer, whose status, headers and body libmicrohttpd already holds
    /// (`PreparedResponse`), with per-request headers (rate limits) when there are any.
    case canned(CannedResponse, ExtraHeaders)
    /// A one-off answer (an admin reply, a refusal, a relayed answer): status, headers, bytes.
    case generated(GeneratedResponse)
    /// A body produced while it is sent (a throttle, a forwarded download, an event stream):
    /// `length` nil sends it chunked, to be ended (or cut) by the stream.
    case stream(status: HTTPResponse.Status, headers: HTTPFields, length: UInt64?, body: any ResponseStream)
    /// `101 Switching Protocols`, then the socket belongs to `connection` (a WebSocket).
    case upgrade(headers: HTTPFields, connection: any UpgradedConnection)
    /// No answer: the connection is closed (`reset`: with an RST), as a `fault` or a `hang` asks.
    case drop(reset: Bool)
    /// No answer from libmicrohttpd: the connection's socket was taken over (a CONNECT's tunnel),
    /// so it lets go of the connection. The log line shows 200, the tunnel's own answer.
    case handedOff
    /// Not ready yet (a delay, a hang, a long-poll, a render, a forward): the connection waits,
    /// suspended, and the request is finished when the wait ends. Its log line comes then.
    case held(HeldAnswer)

    @inline(__always)
    init(_ answer: Outcome.Answer) {
        switch answer {
        case let .canned(canned, extra): self = .canned(canned, extra)
        case .generated(let generated): self = .generated(generated)
        }
    }

    /// The status the log line shows: 0 for no answer.
    var status: Int {
        switch self {
        case .canned(let canned, _): canned.status.code
        case .generated(let generated): generated.status.code
        case .stream(let status, _, _, _): status.code
        case .upgrade: 101
        case .drop: 0
        case .handedOff: 200
        case .held: 0
        }
    }
}

/// One line of the request log.
public struct RequestLogLine: Sendable {
    public var method: String
    public var path: String
    public var status: Int
    /// The route's name or signature; nil for an unmatched request or an admin call.
    public var route: String?
    public var session: String
    public var quota: String?
    public var latencyMicroseconds: Int
    public var isAdmin: Bool
    public var note: String?
    /// Passed on to the real API (`serve --proxy`, `stubd record`): the note says what came of it,
    /// and the line does not call the request unmatched.
    public var isForwarded = false
    /// A WebSocket's or an event stream's id in the journal (`StreamJournal`), under which its messages are kept.
    package var connection: Int?
}

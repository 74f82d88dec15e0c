/// `GET /__stubd/streams/wait?route=…&of=sent&count=N`: 200 when the stream's count was reached, 408 with the count so far.
public struct StreamWait: Sendable, Equatable, Codable {
    /// The route's name, or its signature when it has none.
    public let route: String
    /// `GET /stream`
    public let signature: String
    /// `events` for server-sent events, `websocket` for a WebSocket.
    public let kind: String
    /// What was counted: `sent` (events or messages the server sent), `received` (messages the app
    /// sent on a WebSocket) or `open` (streams or sockets open now).
    public let of: String
    /// The count when the call answered: at least `expected` with the 200, less with the 408.
    public let count: Int
    /// The `count` the call waited for.
    public let expected: Int
    /// Streams or sockets of the route open in the session when the call answered.
    public let open: Int
    /// The last few events or messages the server sent, one line each, oldest first.
    public let recent: [String]
    /// A wait's answer as given.
    public init(route: String, signature: String, kind: String, of: String, count: Int, expected: Int, open: Int, recent: [String]) {
        self.route = route; self.signature = signature; self.kind = kind; self.of = of; self.count = count
        self.expected = expected; self.open = open; self.recent = recent
    }
}

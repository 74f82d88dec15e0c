/// `GET /__stubd/websockets/{name}/messages?after=N`: what the app sent on the route's sockets in the
/// session, oldest first, each with its number, so a reader asks for what came after the last it saw.
public struct WebSocketMessagesReport: Sendable, Equatable, Codable {
    /// One message a client sent.
    public struct Message: Sendable, Equatable, Codable {
        /// 1 for the session's first message on the route, counting on across its sockets.
        public let index: Int
        /// When it came, on the session's clock (virtual when the session's is): ISO 8601 with fractional seconds.
        public let time: String
        /// A text message's text.
        public let text: String?
        /// A binary message's bytes, base64.
        public let binary: String?
        /// Set when the message was longer than the server keeps (64 KiB): `text`/`binary` hold its start.
        public let truncated: Bool?
        /// A message as given.
        public init(index: Int, time: String, text: String?, binary: String?, truncated: Bool? = nil) {
            self.index = index; self.time = time; self.text = text; self.binary = binary; self.truncated = truncated
        }
    }

    /// The route's name, or its signature when it has none.
    public let route: String
    /// The session asked about; `""` for the default one.
    public let session: String
    /// Messages the app sent on the route since the session began or was last reset, those no longer kept included.
    public let total: Int
    /// Those kept (the newest, up to the journal's capacity) after `after`, oldest first.
    public let messages: [Message]
    /// A report as given.
    public init(route: String, session: String, total: Int, messages: [Message]) {
        self.route = route; self.session = session; self.total = total; self.messages = messages
    }
}

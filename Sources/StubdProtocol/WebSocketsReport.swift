/// `GET /__stubd/websockets`: the session's WebSocket routes, how many sockets each has open, and
/// how many messages went each way.
public struct WebSocketsReport: Sendable, Equatable, Codable {
    /// One route whose answer is a WebSocket.
    public struct Route: Sendable, Equatable, Codable {
        /// The route's name, or its signature when it has none (as hit counts key it): what
        /// `/__stubd/websockets/{name}/messages` takes.
        public let route: String
        /// `GET /chat`
        public let signature: String
        /// Sockets of this session open on it now.
        public let open: Int
        /// Messages the app sent on it (text and binary; control frames are not counted).
        public let received: Int
        /// Messages the server sent on it: the script's and those pushed through the admin API.
        public let sent: Int
        /// A route's entry as given.
        public init(route: String, signature: String, open: Int, received: Int, sent: Int) {
            self.route = route; self.signature = signature; self.open = open; self.received = received; self.sent = sent
        }
    }

    /// The session asked about; `""` for the default one.
    public let session: String
    /// Each WebSocket route of the catalog and the session's runtime stubs, in catalog order.
    public let webSockets: [Route]
    /// A report as given.
    public init(session: String, webSockets: [Route]) {
        self.session = session; self.webSockets = webSockets
    }
}

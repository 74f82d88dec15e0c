/// The answer to `POST /__stubd/websockets/{name}/messages`: how many open sockets were given the message.
public struct WebSocketPushed: Sendable, Equatable, Codable {
    /// The route's name, or its signature when it has none.
    public let route: String
    /// The session whose sockets got it; `""` for the default one.
    public let session: String
    /// Open sockets the message was queued on (at least 1: with none open the call is a 409).
    public let sockets: Int
    /// The answer as given.
    public init(route: String, session: String, sockets: Int) {
        self.route = route; self.session = session; self.sockets = sockets
    }
}

/// A WebSocket conversation as a relay saw it (`stubd record`, `serve --proxy --record-missing`):
/// each data message, which side sent it and when, and the close. Socket-free: the relay fills it,
/// `RecordedWebSocket` turns it into a `.ws` script.
package struct WebSocketTranscript: Sendable, Hashable {
    package struct Message: Sendable, Hashable {
        /// Since the socket opened (the client had the `101`).
        package var at: Duration
        /// The app's message (true) or the real API's.
        package var fromClient: Bool
        package var payload: WebSocketPayload

        package init(at: Duration, fromClient: Bool, payload: WebSocketPayload) {
            self.at = at
            self.fromClient = fromClient
            self.payload = payload
        }
    }

    /// The first close frame either side sent.
    package struct Close: Sendable, Hashable {
        package var at: Duration
        package var fromClient: Bool
        /// Nil when the close frame carried none.
        package var code: UInt16?
        package var reason: String

        package init(at: Duration, fromClient: Bool, code: UInt16?, reason: String) {
            self.at = at
            self.fromClient = fromClient
            self.code = code
            self.reason = reason
        }
    }

    /// The subprotocol the API agreed to (`Sec-WebSocket-Protocol` of its `101`), if any.
    package var subprotocol: String?
    package var messages: [Message] = []
    /// Nil when the TCP connection ended without a close frame.
    package var close: Close?

    package init(subprotocol: String? = nil) { self.subprotocol = subprotocol }
}

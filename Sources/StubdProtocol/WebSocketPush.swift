/// `POST /__stubd/websockets/{name}/messages`: one message for every socket of the route open in the
/// session, `{"text": "…"}` or `{"binary": "AAEC"}` (base64).
public struct WebSocketPush: Sendable, Equatable, Codable {
    /// Sent as a text message.
    public let text: String?
    /// Base64: sent as a binary message.
    public let binary: String?
    /// A push of `text` or of `binary` (base64), not both.
    public init(text: String? = nil, binary: String? = nil) {
        self.text = text; self.binary = binary
    }
}

/// What a WebSocket peer says, once its frames are put together: a whole message, or a control frame.
package enum WebSocketMessage: Sendable, Hashable {
    case text(String)
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// The peer's close: its code (nil when it sent none) and reason.
    case close(code: UInt16?, reason: String)
}

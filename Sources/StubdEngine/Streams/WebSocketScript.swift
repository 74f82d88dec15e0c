import Foundation

/// A stub's WebSocket (`websocket:` in the manifest, or a `.ws` file): what the server sends on its
/// own timeline from the open, what it answers to client messages that match, and when it closes.
/// Built at load time; each connection runs its own copy of the timeline.
package final class WebSocketScript: Sendable {
    /// Sent after the open, each `after` the open (on the session's clock when it is virtual).
    package let messages: [WebSocketScriptMessage]
    /// Tried in order against each client message; the first that matches answers.
    package let replies: [WebSocketReply]
    /// The server's close, `after` the open; none: the socket stays open until the client closes it.
    package let close: WebSocketScriptClose?
    /// A client message (or frame) over this is refused with close code 1009.
    package let maxMessageBytes: Int
    /// The subprotocols the stub speaks (`Sec-WebSocket-Protocol`), in no order of preference: the
    /// client's order decides. Empty: the stub speaks whatever the client asks for first.
    package let protocols: [String]

    package static let defaultMaxMessageBytes = 1 << 20

    package init(messages: [WebSocketScriptMessage] = [], replies: [WebSocketReply] = [], close: WebSocketScriptClose? = nil,
                 maxMessageBytes: Int = WebSocketScript.defaultMaxMessageBytes, protocols: [String] = []) {
        self.protocols = protocols
        self.messages = messages
        self.replies = replies
        self.close = close
        self.maxMessageBytes = maxMessageBytes
    }

    /// The first reply whose match takes `message`.
    package func reply(to message: WebSocketMessage) -> WebSocketReply? {
        replyIndex(to: message).map { replies[$0] }
    }

    /// Where that reply is in `replies` (coverage counts replies by it).
    package func replyIndex(to message: WebSocketMessage) -> Int? {
        replies.firstIndex { $0.match.matches(message) }
    }
}

/// One message the server sends: text or binary, and when.
package struct WebSocketScriptMessage: Sendable, Hashable {
    package var payload: WebSocketPayload
    /// After the open (a timeline message) or after the client's message (a reply's).
    package var after: Duration

    package init(_ payload: WebSocketPayload, after: Duration = .zero) {
        self.payload = payload
        self.after = after
    }
}

/// A data message's payload as the stub wrote it.
package enum WebSocketPayload: Sendable, Hashable {
    case text(String)
    case binary([UInt8])

    /// The frame that carries it, unfragmented.
    package var frame: WebSocketFrame {
        switch self {
        case .text(let text): WebSocketFrame(opcode: .text, payload: Array(text.utf8))
        case .binary(let bytes): WebSocketFrame(opcode: .binary, payload: bytes)
        }
    }
}

/// An answer to client messages that match: messages sent back, and perhaps a close.
package struct WebSocketReply: Sendable {
    package var match: WebSocketMatch
    package var send: [WebSocketScriptMessage]
    package var close: WebSocketScriptClose?

    package init(match: WebSocketMatch, send: [WebSocketScriptMessage], close: WebSocketScriptClose? = nil) {
        self.match = match
        self.send = send
        self.close = close
    }
}

/// The server closing the socket: the code and reason of its close frame, and when.
package struct WebSocketScriptClose: Sendable, Hashable {
    package var code: UInt16
    package var reason: String
    package var after: Duration

    package init(code: UInt16 = 1000, reason: String = "", after: Duration = .zero) {
        self.code = code
        self.reason = reason
        self.after = after
    }
}

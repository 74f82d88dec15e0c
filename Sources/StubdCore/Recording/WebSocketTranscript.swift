package import StubdEngine

/// A WebSocket conversation as a relay saw it (`stubd record`, `serve --proxy --record-missing`):
/// each data message, which side sent it and when, and the close. Socket-free: the relay fills it,
/// `RecordedWebSocket` turns it into a `.ws` script. Bounded: messages past `maxBytes` are counted,
/// not kept (an API flooding 218-byte messages took a relay to 5 GB in 30 s when all were kept).
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
    /// The messages kept, in order: the first ones, up to `maxBytes`.
    package private(set) var messages: [Message] = []
    /// What the kept messages cost: their bytes and `messageOverheadBytes` each.
    package private(set) var keptBytes = 0
    /// Messages relayed past `maxBytes`: counted, not kept, nor any message after the first of them.
    package private(set) var unrecorded = 0
    /// The most `keptBytes` may reach (`--max-body` when recording; 0 when only relaying).
    package let maxBytes: Int
    /// What keeping a message costs besides its bytes, counted so a flood of empty messages is bounded too.
    package static let messageOverheadBytes = 64

    /// Every data message relayed, kept or not.
    package var relayedMessages: Int { messages.count + unrecorded }
    /// Nil when the TCP connection ended without a close frame.
    package var close: Close?

    package init(subprotocol: String? = nil, maxBytes: Int = .max) {
        self.subprotocol = subprotocol
        self.maxBytes = maxBytes
    }

    /// Keeps `message` if it fits, and every message before it did: a recording with a hole in the
    /// middle would replay a conversation that never happened.
    package mutating func append(_ message: Message) {
        let bytes: Int
        switch message.payload {
        case .text(let text): bytes = text.utf8.count
        case .binary(let data): bytes = data.count
        }
        let cost = bytes + Self.messageOverheadBytes
        guard unrecorded == 0, cost <= maxBytes - keptBytes else {
            unrecorded += 1
            return
        }
        keptBytes += cost
        messages.append(message)
    }
}

/// Puts frames together into messages (RFC 6455 §5.4): a text or binary frame, then continuations up to
/// one with FIN, control frames allowed in between. Refuses a continuation with nothing to continue, a
/// new message before the last one ended, a message over `maxMessageBytes` (1009), text that is not
/// UTF-8 and a malformed close payload (1002, 1007). Text that cannot become UTF-8 is refused at the
/// fragment that breaks it, not at the last one, so a relay passes on no fragment of it. Socket-free.
package struct WebSocketMessageAssembler: Sendable {
    package let maxMessageBytes: Int
    /// A fragmented message so far, and how many of its bytes are known to be UTF-8 (text only).
    private var partial: (opcode: WebSocketOpcode, bytes: [UInt8], checked: Int)?

    package init(maxMessageBytes: Int) { self.maxMessageBytes = maxMessageBytes }

    /// The message `frame` completes, if any.
    package mutating func add(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> WebSocketMessage? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .continuation:
            guard var current = partial else { throw .protocolError("a continuation frame with no message to continue") }
            guard current.bytes.count + frame.payload.count <= maxMessageBytes else {
                partial = nil
                throw .tooBig("a message over the limit of \(maxMessageBytes) bytes")
            }
            current.bytes += frame.payload
            guard frame.fin else {
                if current.opcode == .text {
                    do { current.checked = try Self.checkText(current.bytes, from: current.checked) } catch {
                        partial = nil
                        throw error
                    }
                }
                partial = current
                return nil
            }
            partial = nil
            return try Self.message(current.opcode, current.bytes)
        case .text, .binary:
            guard partial == nil else { throw .protocolError("a new message began before the fragmented one ended") }
            guard frame.payload.count <= maxMessageBytes else { throw .tooBig("a message over the limit of \(maxMessageBytes) bytes") }
            guard frame.fin else {
                let checked = frame.opcode == .text ? try Self.checkText(frame.payload, from: 0) : 0
                partial = (frame.opcode, frame.payload, checked)
                return nil
            }
            return try Self.message(frame.opcode, frame.payload)
        }
    }

    private static func message(_ opcode: WebSocketOpcode, _ bytes: [UInt8]) throws(WebSocketProtocolError) -> WebSocketMessage {
        guard opcode == .text else { return .binary(bytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidData("a text message that is not UTF-8") }
        return .text(text)
    }

    /// Checks the text of an unfinished message from `start` (a character boundary) up to a last
    /// character the next fragment may complete; returns how far it is known good. Each byte is
    /// checked once, however many fragments bring it.
    private static func checkText(_ bytes: [UInt8], from start: Int) throws(WebSocketProtocolError) -> Int {
        var end = bytes.count
        // A lead byte within the last three whose character runs past the end waits for the rest.
        var i = bytes.count - 1
        while i >= max(start, bytes.count - 3) {
            let byte = bytes[i]
            if byte & 0xC0 != 0x80 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                if i + length > bytes.count { end = i }
                break
            }
            i -= 1
        }
        guard end > start else { return start }
        guard String(validating: bytes[start..<end], as: UTF8.self) != nil else {
            throw .invalidData("a text message that is not UTF-8")
        }
        return end
    }

    /// A close payload: empty, or a code the wire may carry (§7.4) and a UTF-8 reason.
    private static func close(_ payload: [UInt8]) throws(WebSocketProtocolError) -> WebSocketMessage {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw .protocolError("a close payload of one byte (a code takes two)") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isSendable(code) else { throw .protocolError("close code \(code) may not be sent") }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else { throw .invalidData("a close reason that is not UTF-8") }
        return .close(code: code, reason: reason)
    }

    /// The codes a close frame may carry: the defined ones but 1004–1006 and 1015 (which say what
    /// happened without a frame), and 3000–4999 for libraries and applications.
    package static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014: true
        case 3000...4999: true
        default: false
        }
    }
}

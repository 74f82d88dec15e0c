/// Cuts a client's bytes into frames (RFC 6455 §5.2), checking what a server must refuse: an unmasked
/// frame, a reserved opcode or bit, a control frame that is fragmented or over 125 bytes, a length over
/// `maxFrameBytes` (said from the header, before any of the payload is held). It holds the bytes of
/// one read and at most one frame beyond them, so a hostile client cannot grow it past
/// `maxFrameBytes` plus a 14-byte header and what one read takes. Socket-free: the connection
/// `append`s what it read, then takes frames with `next()` until there is none.
///
/// One frame at a time, not all a read completes: a good frame and a bad one arriving in one read
/// must do what they do when they arrive apart (the good one is acted on, then the connection is
/// refused); returning a read's frames only when all were good dropped the good ones, so what a
/// client's messages did hung on how TCP cut its bytes (found by Fuzz/FuzzWebSocketFrames).
package struct WebSocketFrameDecoder: Sendable {
    package let maxFrameBytes: Int
    /// False for a server's frames, which come unmasked (§5.1): a relay (`stubd record`) reads the
    /// real API's side with the same decoder.
    package let fromClient: Bool
    private var buffer: [UInt8] = []
    /// Where the next frame starts in `buffer`: the bytes before it were decoded.
    private var start = 0
    /// Set once a frame was refused: the connection is over, and nothing more is decoded.
    private var failed = false

    package init(maxFrameBytes: Int, fromClient: Bool = true) {
        self.maxFrameBytes = maxFrameBytes
        self.fromClient = fromClient
    }

    /// Adds bytes the client sent (none once a frame was refused).
    package mutating func append(_ bytes: some Collection<UInt8>) {
        guard !failed else { return }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil until its bytes have all come; the error ends the connection,
    /// after every frame before it was returned, however the bytes were cut.
    package mutating func next() throws(WebSocketProtocolError) -> WebSocketFrame? {
        guard !failed else { return nil }
        do {
            guard let (frame, used) = try decodeOne(at: start) else { return nil }
            start += used
            return frame
        } catch {
            failed = true
            buffer = []
            start = 0
            throw error
        }
    }

    /// The frame starting at `start`, and how many bytes it took; nil when its bytes have not all come.
    private func decodeOne(at start: Int) throws(WebSocketProtocolError) -> (WebSocketFrame, Int)? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let b0 = buffer[start], b1 = buffer[start + 1]
        guard b0 & 0x70 == 0 else { throw .protocolError("reserved bits set (no extension was agreed)") }
        guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else {
            throw .protocolError("opcode \(b0 & 0x0F) is reserved")
        }
        let fin = b0 & 0x80 != 0
        guard b1 & 0x80 != 0 || !fromClient else { throw .protocolError("a client frame must be masked") }
        guard b1 & 0x80 == 0 || fromClient else { throw .protocolError("a server frame must not be masked") }
        let maskBytes = fromClient ? 4 : 0
        var length = UInt64(b1 & 0x7F)
        var offset = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            offset = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for i in 0..<8 { length = length << 8 | UInt64(buffer[start + 2 + i]) }
            guard length >> 63 == 0 else { throw .protocolError("a 64-bit length must have its top bit clear") }
            offset = 10
        }
        if opcode.isControl {
            guard fin else { throw .protocolError("a control frame cannot be fragmented") }
            guard length <= 125 else { throw .protocolError("a control frame carries at most 125 bytes") }
        }
        guard length <= UInt64(maxFrameBytes) else {
            throw .tooBig("a frame of \(length) bytes is over the limit of \(maxFrameBytes)")
        }
        let total = offset + maskBytes + Int(length)
        guard available >= total else { return nil }
        guard fromClient else {
            let payloadStart = start + offset
            return (WebSocketFrame(fin: fin, opcode: opcode, payload: Array(buffer[payloadStart..<payloadStart + Int(length)])), total)
        }
        let key = (buffer[start + offset], buffer[start + offset + 1], buffer[start + offset + 2], buffer[start + offset + 3])
        let payloadStart = start + offset + 4
        var payload = [UInt8](repeating: 0, count: Int(length))
        for i in 0..<Int(length) {
            let k: UInt8
            switch i & 3 {
            case 0: k = key.0
            case 1: k = key.1
            case 2: k = key.2
            default: k = key.3
            }
            payload[i] = buffer[payloadStart + i] ^ k
        }
        return (WebSocketFrame(fin: fin, opcode: opcode, payload: payload), total)
    }
}

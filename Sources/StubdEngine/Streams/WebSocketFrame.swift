/// One WebSocket frame (RFC 6455 §5.2), its payload already unmasked.
package struct WebSocketFrame: Sendable, Hashable {
    package var fin: Bool
    package var opcode: WebSocketOpcode
    package var payload: [UInt8]

    package init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// The frame as a server sends it: never masked (§5.1), the length in the shortest form.
    package var serverBytes: [UInt8] { bytes(mask: nil) }

    /// The frame as a client sends it, masked with `mask` (tests and the fuzz corpus write client frames).
    package func bytes(mask: (UInt8, UInt8, UInt8, UInt8)?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 14)
        out.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case ..<126: out.append(maskBit | UInt8(payload.count))
        case ..<65_536:
            out.append(maskBit | 126)
            out += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            out.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xFF)) }
        }
        guard let mask else { return out + payload }
        let key = [mask.0, mask.1, mask.2, mask.3]
        out += key
        for (i, byte) in payload.enumerated() { out.append(byte ^ key[i & 3]) }
        return out
    }

    /// A close frame's payload: the code, big-endian, then the reason in UTF-8 (cut to fit 125 bytes).
    package static func close(_ code: UInt16, reason: String = "") -> WebSocketFrame {
        var reasonBytes = Array(reason.utf8)
        if reasonBytes.count > 123 {
            // Cut on a character boundary, so the reason stays valid UTF-8.
            var cut = 123
            while cut > 0, reasonBytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            reasonBytes = Array(reasonBytes[..<cut])
        }
        return WebSocketFrame(opcode: .close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + reasonBytes)
    }
}

import Foundation
/// Which subprotocol a WebSocket speaks (RFC 6455 §4.2.2, `Sec-WebSocket-Protocol`): the first one the
/// client offered that the stub speaks. Socket-free.
package enum WebSocketSubprotocol {
    /// What the handshake agrees on.
    package enum Choice: Equatable, Sendable {
        /// Answer the 101 with this `Sec-WebSocket-Protocol`.
        case agreed(String)
        /// The client offered none: the 101 names none (the RFC lets a server omit it).
        case none
        /// The client offered some and the stub speaks none of them: the handshake is refused, since a
        /// 101 without the header makes a browser fail the connection with no word of why, and a
        /// client that goes on would speak a protocol the stub does not.
        case refused(offered: [String], spoken: [String])
    }

    /// The client's offers, in its order: every `Sec-WebSocket-Protocol` field's comma-separated tokens.
    package static func offers(_ fields: [String]) -> [String] {
        fields.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: [" ", "\t"]) }.filter { !$0.isEmpty }
    }

    /// The choice for a client that offered `offered` (already split) to a stub that speaks `spoken`;
    /// a stub that declares none speaks whatever the client asks for first. Tokens compare exactly
    /// (subprotocol names are case-sensitive, §11.5).
    package static func choose(offered: [String], spoken: [String]) -> Choice {
        guard let first = offered.first else { return .none }
        guard !spoken.isEmpty else { return .agreed(first) }
        if let agreed = offered.first(where: spoken.contains) { return .agreed(agreed) }
        return .refused(offered: offered, spoken: spoken)
    }

    /// Whether `name` can be a subprotocol: an HTTP token (RFC 9110 §5.6.2), as §4.1 requires.
    package static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}

/// Why a peer's bytes end the connection, as the close code the server sends (RFC 6455 §7.4.1) and a
/// reason a person reading a capture can act on.
package struct WebSocketProtocolError: Error, Sendable, Hashable {
    package let code: UInt16
    package let reason: String

    package init(_ code: UInt16, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// 1002: a frame the protocol does not allow (unmasked, a reserved opcode or bit, a broken fragment sequence).
    package static func protocolError(_ reason: String) -> Self { Self(1002, reason) }
    /// 1007: a text message or close reason that is not UTF-8.
    package static func invalidData(_ reason: String) -> Self { Self(1007, reason) }
    /// 1008: a peer that breaks a limit stubd keeps (more replies waiting than a socket may hold).
    package static func policyViolation(_ reason: String) -> Self { Self(1008, reason) }
    /// 1009: a frame or message over the limit.
    package static func tooBig(_ reason: String) -> Self { Self(1009, reason) }
}

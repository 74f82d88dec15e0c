#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP address literal's bytes (4 or 16), for a certificate's subject alternative names: a client
/// checks `https://127.0.0.1` against an IP entry, never against a DNS name.
struct IPAddressBytes {
    let bytes: [UInt8]

    init?(_ literal: String) {
        let literal = literal.hasPrefix("[") && literal.hasSuffix("]") ? String(literal.dropFirst().dropLast()) : literal
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, literal, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }
}

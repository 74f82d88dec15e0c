#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPTypes
import StubdCore
import StubdEngine
import StubdProtocol

/// Keeps stubd from forwarding to itself (issue 38): a target, an `--upstream-proxy` or a
/// pass-through host that is stubd's own listening address would have every forward come back as
/// a new request, forwarded again until the connection cap is full, and the last hop's 503 recorded
/// as the API's answer.
///
/// Two checks, since neither sees every loop. An address about to be connected to is compared with
/// the ones stubd listens on, after resolution, so every spelling of it is caught (`0.0.0.0`,
/// `[::ffff:127.0.0.1]`, `2130706433`, `localhost`). And every forwarded request carries a `Via`
/// token of this server's own: one coming back through another proxy is refused too, and so is an
/// answer carrying it (this server's own refusal, one hop further out).
final class ForwardingLoop: Sendable {
    /// `stubd-` and 8 hex digits, new for each server: two stubd servers chained on purpose (one
    /// recording another) have different tokens and are not a loop.
    let token: String
    /// Where this server listens, set once its sockets are bound.
    private let listening = Locked<[(address: sockaddr_storage, port: UInt16)]>([])

    init() {
        token = "stubd-" + String(format: "%08x", UInt32.random(in: 0...UInt32.max))
    }

    /// The `Via` element a forwarded request carries (RFC 9110 §7.6.3).
    var viaElement: String { "1.1 \(token)" }

    func listen(on fd: Int32) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        guard withUnsafeMutablePointer(to: &storage, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }) == 0
        else { return }
        let port = withUnsafePointer(to: &storage) { ForwardingLoop.port(of: UnsafeRawPointer($0).assumingMemoryBound(to: sockaddr.self)) }
        listening.withLock { $0.append((storage, port)) }
    }

    /// Whether `headers` (a request's, or an answer's) carry this server's own `Via` token.
    func isOwn(_ headers: HTTPFields) -> Bool {
        headers[values: .via].contains { $0.contains(token) }
    }

    /// `headers` with this server's `Via` element added to those already there.
    func stamped(_ headers: HTTPFields) -> HTTPFields {
        var stamped = headers
        stamped.append(HTTPField(name: .via, value: viaElement))
        return stamped
    }

    /// Whether connecting to `address` would reach this server: its port, and an address that is
    /// the one bound, or, for a server bound to every interface, any address of this machine.
    /// `0.0.0.0` and `::` reach the machine itself, and an IPv4-mapped IPv6 address is its IPv4 one.
    func reachesThisServer(_ address: UnsafePointer<sockaddr>) -> Bool {
        let port = ForwardingLoop.port(of: address)
        guard let target = ForwardingLoop.normalised(address) else { return false }
        return listening.withLock { listening in
            listening.contains { entry in
                guard entry.port == port else { return false }
                var bound = entry.address
                let own = withUnsafePointer(to: &bound) { ForwardingLoop.normalised(UnsafeRawPointer($0).assumingMemoryBound(to: sockaddr.self)) }
                guard let own else { return false }
                if own.isUnspecified { return target.isUnspecified || target.isLoopback || ForwardingLoop.isLocalInterface(target) }
                return own == target || (target.isUnspecified && own.isLoopback && own.isV4 == target.isV4)
            }
        }
    }

    /// The problem a request gets when forwarding it would loop; `Via` on it lets a stubd further
    /// out that forwarded it here see its own answer for what it is.
    func refusal(_ why: String) -> GeneratedResponse {
        var problem = GeneratedResponse.problem(508, title: "Forwarding loop",
                                                detail: "\(why): stubd would be forwarding to itself, so nothing was forwarded or recorded. "
                                                    + "Point --target, --proxy or --upstream-proxy at the real API, not at stubd's own address; "
                                                    + "stubd ignores http_proxy, https_proxy and ALL_PROXY unless --upstream-proxy names one")
        problem.headers.append(HTTPField(name: .via, value: viaElement))
        return problem
    }

    /// An address reduced to what decides where a connection goes: IPv4 for an IPv4-mapped one.
    private struct Address: Equatable {
        let isV4: Bool
        let bytes: [UInt8]
        var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }
        var isLoopback: Bool { isV4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1] }
    }

    private static func normalised(_ address: UnsafePointer<sockaddr>) -> Address? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                var a = p.pointee.sin_addr
                return Address(isV4: true, bytes: withUnsafeBytes(of: &a) { Array($0) })
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                var a = p.pointee.sin6_addr
                let bytes = withUnsafeBytes(of: &a) { Array($0) }
                if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
                    return Address(isV4: true, bytes: Array(bytes[12..<16]))
                }
                return Address(isV4: false, bytes: bytes)
            }
        default:
            return nil
        }
    }

    static func port(of address: UnsafePointer<sockaddr>) -> UInt16 {
        switch Int32(address.pointee.sa_family) {
        case AF_INET: return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        case AF_INET6: return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        default: return 0
        }
    }

    /// Whether `address` is assigned to one of this machine's interfaces.
    private static func isLocalInterface(_ address: Address) -> Bool {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return false }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry {
            entry = current.pointee.ifa_next
            if let a = current.pointee.ifa_addr, normalised(a) == address { return true }
        }
        return false
    }
}

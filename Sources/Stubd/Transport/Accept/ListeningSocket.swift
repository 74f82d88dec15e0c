#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The listening socket, bound by us rather than by libmicrohttpd so a failure says exactly
/// why (port in use, address not on this machine) and port 0 reports the port it got.
struct ListeningSocket {
    let fd: Int32
    let host: String
    let port: UInt16

    static func open(host: String, port: UInt16) throws(BindError) -> ListeningSocket {
        let literal = host == "localhost" ? "127.0.0.1" : host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr()
        var v6 = in6_addr()
        let isV4 = inet_pton(AF_INET, literal, &v4) == 1
        let isV6 = !isV4 && inet_pton(AF_INET6, literal, &v6) == 1
        guard isV4 || isV6 else {
            throw BindError(description: "--host \(host) is not an IP address; use 127.0.0.1 (the default), ::1, 0.0.0.0 or an address of this machine")
        }
        let fd = Sockets.stream(family: isV4 ? AF_INET : AF_INET6)
        guard fd >= 0 else { throw BindError(description: "cannot create a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if isV6 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size)) }

        let bound: Int32
        if isV4 {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            addr.sin_addr = v4
            bound = bindTo(fd, addr)
        } else {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = port.bigEndian
            addr.sin6_addr = v6
            bound = bindTo(fd, addr)
        }
        if bound != 0 {
            let code = errno
            close(fd)
            switch code {
            case EADDRINUSE:
                throw BindError(description: "port \(port) on \(host) is already in use; stop the other server or pass --port 0 for a free port")
            case EADDRNOTAVAIL:
                throw BindError(description: "address \(host) is not an address of this machine; use 127.0.0.1, 0.0.0.0 or one of this machine's addresses")
            case EACCES:
                throw BindError(description: "port \(port) on \(host) needs privileges; use a port above 1023")
            default:
                throw BindError(description: "cannot listen on \(host):\(port): \(String(cString: strerror(code)))")
            }
        }
        guard listen(fd, 4096) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw BindError(description: "cannot listen on \(host):\(port): \(message)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let actual: UInt16 = withUnsafePointer(to: &storage) { p in
            isV4 ? p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
                 : p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        }
        return ListeningSocket(fd: fd, host: isV6 ? "[\(literal)]" : literal, port: actual)
    }

    /// `bind(2)` to an IPv4 or IPv6 address (`sockaddr_in`, `sockaddr_in6`), passed as the `sockaddr` it begins with.
    private static func bindTo<Address>(_ fd: Int32, _ address: Address) -> Int32 {
        withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) } }
    }
}

extension ListeningSocket {
    /// Whether `host` (as given to `--host`) is a loopback address, reachable from this machine only.
    static func isLoopback(_ host: String) -> Bool {
        let literal = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return literal == "localhost" || literal == "::1" || literal.hasPrefix("127.")
    }
}

/// `127.0.0.1` or `::1` from a connection's peer address, for quotas keyed by ip.
func describeAddress(_ address: UnsafePointer<sockaddr>?) -> String {
    guard let address else { return "" }
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
        return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
            var a = p.pointee.sin_addr
            return inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? ""
        }
    case AF_INET6:
        return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
            var a = p.pointee.sin6_addr
            return inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? ""
        }
    default:
        return ""
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Sockets {
    /// True when the peer of `socket` has closed or reset it. A peek neither consumes what a live
    /// client sent (a pipelined request) nor waits.
    static func peerHasLeft(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if n == 0 { return true }
        return n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }
}

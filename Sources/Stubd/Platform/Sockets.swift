#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What differs between Linux and Darwin below the server: socket flags (and the one event loop
/// both use). Everything else in the transport is plain POSIX.
enum Sockets {
    /// A TCP socket that is not inherited by child processes.
    static func stream(family: Int32) -> Int32 {
        #if os(Linux)
        return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        // No SOCK_CLOEXEC on Darwin: set the flag right after (stubd starts no processes in between).
        let fd = socket(family, SOCK_STREAM, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fd
        #endif
    }

    /// `SOCK_STREAM` as `getaddrinfo`'s hints take it.
    static var streamType: Int32 {
        #if os(Linux)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }

    /// `connect(2)`, named apart from Swift's own `connect`s.
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        return Glibc.connect(fd, address, length)
        #else
        return Darwin.connect(fd, address, length)
        #endif
    }

    /// No more writes from this end (a half-close the peer reads as the end of the stream).
    static func shutdownWrites(_ fd: Int32) {
        #if os(Linux)
        _ = shutdown(fd, Int32(SHUT_WR))
        #else
        _ = shutdown(fd, SHUT_WR)
        #endif
    }

    /// Makes the next close send an RST instead of a FIN (`SO_LINGER` with a zero timeout).
    static func resetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Keeps a write to a connection the peer closed from raising SIGPIPE, on platforms where
    /// `send` flags cannot (Darwin has SO_NOSIGPIPE per socket, and no MSG_NOSIGNAL).
    static func suppressBrokenPipe(_ fd: Int32) {
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// `send` flags that keep a closed peer from raising SIGPIPE (0 on Darwin: see `suppressBrokenPipe`).
    static var noSignal: Int32 {
        #if os(Linux)
        return Int32(MSG_NOSIGNAL)
        #else
        return 0
        #endif
    }
}

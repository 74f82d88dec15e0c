import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve --proxy-unknown pass`: a `CONNECT` to a host the Stubs folder does not serve becomes a
/// plain byte relay to the real host, TLS and all, which stubd neither ends nor reads (an SDK that
/// talks to a stubbed API and to an analytics host keeps working for the second).
///
/// One thread per tunnel, since a relay blocks in `poll` for as long as both ends live: connects
/// (10 s at most), answers the CONNECT (200, or 502 naming the host and why), then copies bytes
/// both ways through 64 KiB buffers, so a slow end holds back the other instead of filling memory.
/// Closed when both ends have closed, on an error, or after `idleSeconds` with no byte either way.
/// At most `maxTunnels` at once; past it the CONNECT gets 503.
enum BlindTunnel {
    static let maxTunnels = 1_000
    static let connectSeconds: Int32 = 10
    static let idleSeconds: Int32 = 300
    private static let openCount = Atomic<Int>(0)

    /// Takes `client` (a socket stubd owns from now on: a duplicate of the CONNECT's connection).
    /// `done` is told the outcome for the log once the relay has ended.
    static func open(client: Int32, authority: String, done: @escaping @Sendable (String) -> Void) {
        guard openCount.add(1, ordering: .relaxed).newValue <= maxTunnels else {
            openCount.subtract(1, ordering: .relaxed)
            answer(client, status: "503 Service Unavailable", "stubd holds \(maxTunnels) pass-through tunnels already; close some")
            close(client)
            return done("refused: \(maxTunnels) tunnels open")
        }
        let thread = Thread {
            defer { openCount.subtract(1, ordering: .relaxed) }
            let outcome = run(client: client, authority: authority)
            close(client)
            done(outcome)
        }
        thread.name = "stubd-tunnel"
        thread.start()
    }

    /// `host:port` → (host, port); a bracketed IPv6 address keeps its colons. Port 443 when none.
    static func split(_ authority: String) -> (host: String, port: String)? {
        if authority.hasPrefix("[") {
            guard let end = authority.firstIndex(of: "]") else { return nil }
            let host = String(authority[authority.index(after: authority.startIndex)..<end])
            let rest = authority[authority.index(after: end)...]
            return (host, rest.hasPrefix(":") ? String(rest.dropFirst()) : "443")
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let host = parts.first, !host.isEmpty else { return nil }
        let port = parts.count == 2 ? String(parts[1]) : "443"
        guard let number = Int(port), (1...65_535).contains(number) else { return nil }
        return (String(host), port)
    }

    private static func run(client: Int32, authority: String) -> String {
        guard let (host, port) = split(authority) else {
            answer(client, status: "400 Bad Request", "CONNECT takes host:port, got \(authority.prefix(200))")
            return "bad authority"
        }
        let upstream: Int32
        switch connect(host: host, port: port) {
        case .success(let fd): upstream = fd
        case .failure(let why):
            answer(client, status: "502 Bad Gateway", "stubd could not reach \(authority.prefix(260)) to pass the tunnel through: \(why)")
            return "pass-through to \(authority) failed: \(why)"
        }
        defer { close(upstream) }
        let established = "HTTP/1.1 200 Connection established\r\n\r\n"
        guard write(client, Array(established.utf8)) else { return "the client left before the tunnel opened" }
        let (up, down) = relay(client, upstream)
        return "passed through to \(authority): \(up) bytes up, \(down) bytes down"
    }

    private enum ConnectError: Error, CustomStringConvertible {
        case failed(String)
        var description: String { if case .failed(let why) = self { return why }; return "" }
    }

    /// A TCP connection to the first address of `host` that takes one within `connectSeconds`.
    private static func connect(host: String, port: String) -> Result<Int32, ConnectError> {
        var hints = addrinfo()
        hints.ai_socktype = Sockets.streamType
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &list)
        guard status == 0, let first = list else { return .failure(.failed("cannot resolve \(host): \(String(cString: gai_strerror(status)))")) }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            Sockets.suppressBrokenPipe(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            if Sockets.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&pfd, 1, connectSeconds * 1000) == 1 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        _ = fcntl(fd, F_SETFL, flags)
                        return .success(fd)
                    }
                    lastError = String(cString: strerror(error))
                } else {
                    lastError = "no answer within \(connectSeconds) s"
                }
            } else {
                lastError = String(cString: strerror(errno))
            }
            close(fd)
        }
        return .failure(.failed(lastError))
    }

    /// Copies bytes both ways until both ends have closed (a half-close is passed on), an error, or
    /// `idleSeconds` of silence. Returns the bytes sent up and down.
    private static func relay(_ client: Int32, _ upstream: Int32) -> (Int, Int) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var open = (client: true, upstream: true)
        var counts = (up: 0, down: 0)
        while open.client || open.upstream {
            var fds = [pollfd(fd: open.client ? client : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: open.upstream ? upstream : -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, idleSeconds * 1000)
            if ready == 0 { break }
            if ready < 0 { if errno == EINTR { continue } else { break } }
            for (index, (from, to)) in [(client, upstream), (upstream, client)].enumerated() where fds[index].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
                if n <= 0 {
                    // This end is done sending: tell the other, and stop reading it.
                    Sockets.shutdownWrites(to)
                    if index == 0 { open.client = false } else { open.upstream = false }
                    continue
                }
                guard write(to, Array(buffer[0..<n])) else { return (counts.up, counts.down) }
                if index == 0 { counts.up += n } else { counts.down += n }
            }
        }
        return (counts.up, counts.down)
    }

    /// Writes all of `bytes` (blocking: the other end's pace sets ours), false when the peer is gone.
    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Sockets.noSignal) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    private static func answer(_ fd: Int32, status: String, _ message: String) {
        let body = message + "\n"
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        _ = write(fd, Array((head + body).utf8))
    }
}

import Foundation
import HTTPTypes
import StubdCore
import StubdEngine
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
/// (within `--timeout`; through `--upstream-proxy` when there is one), answers the CONNECT (200, or
/// 502 naming the host and why), then copies bytes both ways through 64 KiB buffers, so a slow end
/// holds back the other instead of filling memory. Closed when both ends have closed, on an error,
/// after `idleSeconds` with no byte either way, or when one end has taken nothing for `idleSeconds`
/// (every socket is non-blocking and every wait has that deadline: an end that stops reading cannot
/// hold the thread and its slot for ever). At most `maxTunnels` at once; past it the CONNECT gets 503.
enum BlindTunnel {
    static let maxTunnels = 1_000
    static let defaultIdleSeconds: Int32 = 300
    private static let openCount = Atomic<Int>(0)

    /// Tunnels open now, in this process (every server's).
    static var openNow: Int { openCount.load(ordering: .relaxed) }

    /// How a tunnel reaches its host and how long it waits.
    struct Route: Sendable {
        var upstream = UpstreamSettings()
        var loop: ForwardingLoop
        var idleSeconds = BlindTunnel.defaultIdleSeconds
    }

    /// Takes `client` (a socket stubd owns from now on: a duplicate of the CONNECT's connection).
    /// `done` is told the status the client got and what became of the tunnel, once it has ended.
    static func open(client: Int32, authority: String, route: Route, done: @escaping @Sendable (Int, String) -> Void) {
        guard openCount.add(1, ordering: .relaxed).newValue <= maxTunnels else {
            openCount.subtract(1, ordering: .relaxed)
            answer(client, status: .serviceUnavailable, "stubd holds \(maxTunnels) pass-through tunnels already; close some")
            close(client)
            return done(503, "refused: \(maxTunnels) tunnels open")
        }
        NamedThread.start("stubd-tunnel") {
            defer { openCount.subtract(1, ordering: .relaxed) }
            let (status, outcome) = run(client: client, authority: authority, route: route)
            close(client)
            done(status, outcome)
        }
    }

    /// `host:port` → (host, port); a bracketed IPv6 address keeps its colons. Port 443 when none.
    /// Nil for an empty host or a port outside 1–65535.
    static func split(_ authority: String) -> (host: String, port: String)? {
        let host: String
        let port: String
        if authority.hasPrefix("[") {
            guard let end = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<end])
            let rest = authority[authority.index(after: end)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            port = rest.isEmpty ? "443" : String(rest.dropFirst())
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let first = parts.first else { return nil }
            host = String(first)
            port = parts.count == 2 ? String(parts[1]) : "443"
        }
        guard !host.isEmpty, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(port), (1...65_535).contains(number) else { return nil }
        return (host, port)
    }

    private static func run(client: Int32, authority: String, route: Route) -> (Int, String) {
        guard let (host, port) = split(authority) else {
            answer(client, status: .badRequest, "CONNECT takes host:port with a port from 1 to 65535, got \(authority.prefix(200))")
            return (400, "bad authority: CONNECT takes host:port with a port from 1 to 65535")
        }
        let timeoutMilliseconds = Int32(clamping: Int(max(1, route.upstream.passThroughTimeoutSeconds) * 1000))
        let upstream: Int32
        switch reach(host: host, port: port, authority: authority, route: route, timeoutMilliseconds: timeoutMilliseconds) {
        case .success(let fd): upstream = fd
        case .failure(.loop(let why)):
            answer(client, status: HTTPResponse.Status(code: 508, reasonPhrase: "Loop Detected"), "stubd did not open a tunnel to \(authority.prefix(260)): \(why), so it would be tunnelling to itself")
            return (508, "not passed through: a loop (\(why))")
        case .failure(.failed(let why)):
            answer(client, status: .badGateway, "stubd could not reach \(authority.prefix(260)) to pass the tunnel through: \(why)")
            return (502, "pass-through to \(authority) failed: \(why)")
        }
        defer { close(upstream) }
        for fd in [client, upstream] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let established = "HTTP/1.1 200 Connection established\r\n\r\n"
        guard write(client, Array(established.utf8), idleMilliseconds: route.idleSeconds * 1000) == nil else {
            return (200, "the client left before the tunnel opened")
        }
        let (up, down, ending) = relay(client, upstream, idleSeconds: route.idleSeconds)
        return (200, "passed through to \(authority): \(up) bytes up, \(down) bytes down" + (ending.map { "; \($0)" } ?? ""))
    }

    enum ConnectError: Error {
        case failed(String)
        /// The address (or the proxy's) is this server's own.
        case loop(String)
    }

    /// A connection to `host:port`, or through `--upstream-proxy` to it (its CONNECT answered 200).
    private static func reach(host: String, port: String, authority: String, route: Route, timeoutMilliseconds: Int32) -> Result<Int32, ConnectError> {
        guard let proxy = route.upstream.proxy else {
            return connect(host: host, port: port, loop: route.loop, timeoutMilliseconds: timeoutMilliseconds)
        }
        let proxyHost = (proxy.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let proxyPort = String(proxy.port ?? (proxy.scheme == "https" ? 443 : 80))
        let fd: Int32
        switch connect(host: proxyHost, port: proxyPort, loop: route.loop, timeoutMilliseconds: timeoutMilliseconds) {
        case .success(let connected): fd = connected
        case .failure(.failed(let why)): return .failure(.failed("the upstream proxy \(proxyHost):\(proxyPort) (--upstream-proxy): \(why)"))
        case .failure(let loop): return .failure(loop)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let request = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\nVia: \(route.loop.viaElement)\r\n\r\n"
        if let why = write(fd, Array(request.utf8), idleMilliseconds: timeoutMilliseconds) {
            close(fd)
            return .failure(.failed("the upstream proxy \(proxyHost):\(proxyPort): \(why)"))
        }
        // Its answer's head, read a byte at a time: what follows the blank line is the tunnel's.
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]), head.count < 16_384 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, timeoutMilliseconds) == 1, recv(fd, &byte, 1, 0) == 1 else {
                close(fd)
                return .failure(.failed("the upstream proxy \(proxyHost):\(proxyPort) did not answer CONNECT within \(timeoutMilliseconds / 1000) s"))
            }
            head.append(byte)
        }
        let statusLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
        guard statusLine.split(separator: " ").dropFirst().first == "200" else {
            close(fd)
            return .failure(.failed("the upstream proxy \(proxyHost):\(proxyPort) answered CONNECT with \(statusLine.prefix(200))"))
        }
        return .success(fd)
    }

    /// A TCP connection to the first address of `host` that takes one within the timeout; an
    /// address that is this server's own is a loop, not tried.
    static func connect(host: String, port: String, loop: ForwardingLoop, timeoutMilliseconds: Int32) -> Result<Int32, ConnectError> {
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
            guard let address = info.pointee.ai_addr else { continue }
            if loop.reachesThisServer(address) {
                return .failure(.loop("\(host) port \(port) is \(describeAddress(address)), where this stubd listens"))
            }
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            Sockets.suppressBrokenPipe(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            if Sockets.connect(fd, address, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&pfd, 1, timeoutMilliseconds) == 1 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        _ = fcntl(fd, F_SETFL, flags)
                        return .success(fd)
                    }
                    lastError = String(cString: strerror(error))
                } else {
                    lastError = "no answer within \(timeoutMilliseconds / 1000) s (--timeout)"
                }
            } else {
                lastError = String(cString: strerror(errno))
            }
            close(fd)
        }
        return .failure(.failed(lastError))
    }

    /// Copies bytes both ways until both ends have closed (a half-close is passed on), an error,
    /// `idleSeconds` of silence, or an end that takes nothing for `idleSeconds`. Returns the bytes
    /// sent up and down, and why it ended early, if it did.
    private static func relay(_ client: Int32, _ upstream: Int32, idleSeconds: Int32) -> (Int, Int, String?) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var open = (client: true, upstream: true)
        var counts = (up: 0, down: 0)
        while open.client || open.upstream {
            var fds = [pollfd(fd: open.client ? client : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: open.upstream ? upstream : -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, idleSeconds * 1000)
            if ready == 0 { return (counts.up, counts.down, "nothing either way for \(idleSeconds) s") }
            if ready < 0 { if errno == EINTR { continue } else { break } }
            for (index, (from, to)) in [(client, upstream), (upstream, client)].enumerated() where fds[index].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
                if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                if n <= 0 {
                    // This end is done sending: tell the other, and stop reading it.
                    Sockets.shutdownWrites(to)
                    if index == 0 { open.client = false } else { open.upstream = false }
                    continue
                }
                if let why = write(to, Array(buffer[0..<n]), idleMilliseconds: idleSeconds * 1000) {
                    return (counts.up, counts.down, "the \(index == 0 ? "host" : "client") \(why)")
                }
                if index == 0 { counts.up += n } else { counts.down += n }
            }
        }
        return (counts.up, counts.down, nil)
    }

    /// Writes all of `bytes` to a non-blocking socket, waiting for room at most `idleMilliseconds`
    /// at a time; nil once written, else why not (the peer left, or took nothing for that long).
    static func write(_ fd: Int32, _ bytes: [UInt8], idleMilliseconds: Int32) -> String? {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Sockets.noSignal) }
            if n > 0 {
                sent += n
                continue
            }
            guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return "left" }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&pfd, 1, idleMilliseconds) == 0 { return "took nothing for \(idleMilliseconds / 1000) s (stopped reading)" }
        }
        return nil
    }

    private static func answer(_ fd: Int32, status: HTTPResponse.Status, _ message: String) {
        let answer = GeneratedResponse(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data((message + "\n").utf8))
        _ = write(fd, ResponseWriter.closingBytes(answer), idleMilliseconds: 5000)
    }
}

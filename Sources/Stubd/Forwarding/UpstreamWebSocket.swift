#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// The real API's side of a relayed WebSocket (`stubd record`, `serve --proxy`): a TCP connection to
/// the target, the app's handshake passed on (its key, version, subprotocols, cookies and the like;
/// not its extensions, since our frame codec speaks none), and the API's answer head read. Blocking:
/// runs on a forward's own thread. libcurl is not used here: Debian's has no WebSocket support, and
/// after the `101` the socket is ours to read frames from.
enum UpstreamWebSocket {
    enum Opened {
        /// `101`: the socket (blocking), the API's headers and any bytes it sent past its head (frames).
        case upgraded(fd: Int32, headers: HTTPFields, extra: [UInt8])
        /// Anything else (a 401, a 404): relayed to the app as the API's answer.
        case answered(status: Int, headers: HTTPFields, body: Data)
        case unreachable(String)
        /// A `101` that does not prove the API read the key (its `Sec-WebSocket-Accept`, RFC 6455 §4.1): not relayed.
        case badHandshake(String)
        case loop(String)
    }

    /// Request headers never passed on: the handshake's own are written anew, extensions are not agreed.
    static let notForwarded: Set<String> = Forwarder.notForwarded.union(["sec-websocket-extensions"])

    static func open(url: URL, headers: HTTPFields, loop: ForwardingLoop, timeoutSeconds: Double) -> Opened {
        guard url.scheme == "http", let host = url.host, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            // The relay reads and writes the API's socket itself (poll, recv, send): it has no TLS
            // client, and Debian 12's libcurl (7.88) has no WebSocket support to lean on. See
            // docs/websocket.md#relaying-to-a-wss-api.
            return .unreachable("stubd cannot relay a WebSocket to an \(url.scheme ?? "?")://… target (wss://): its relay speaks "
                + "plain TCP and has no TLS client; point --proxy (or record) at the API's plain http:// (ws://) address, "
                + "or write the .ws script by hand. Only the stub's own side can be wss:// (serve --tls)")
        }
        let port = url.port ?? 80
        let timeout = Int32(min(timeoutSeconds, 3600) * 1000)
        let fd: Int32
        switch BlindTunnel.connect(host: host, port: String(port), loop: loop, timeoutMilliseconds: timeout) {
        case .success(let connected): fd = connected
        case .failure(.failed(let why)): return .unreachable(why)
        case .failure(.loop(let why)): return .loop(why)
        }
        let target = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        let leftOut = HopByHopHeaders.leftOut(of: headers, also: notForwarded)
        var head = "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        for h in loop.stamped(HTTPFields(headers.filter { !leftOut.contains($0.name.canonicalName) })) { head += "\(h.name.rawName): \(h.value)\r\n" }
        if let why = BlindTunnel.write(fd, Array((head + "\r\n").utf8), idleMilliseconds: timeout) {
            close(fd)
            return .unreachable("the API \(why) while the handshake was sent")
        }
        // The answer's head, then (not a 101) its body as far as Content-Length says, at most 1 MiB.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var headEnd: Int?
        var wanted = Int.max
        while received.count < 1 << 20 {
            if let end = headEnd, received.count - end >= wanted { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, timeout) == 1 else {
                close(fd)
                return .unreachable("no answer to the WebSocket handshake within \(timeout / 1000) s (--timeout)")
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EAGAIN || errno == EINTR { continue }
            if n <= 0 { break }
            received += buffer[..<n]
            if headEnd == nil, let end = headEndIndex(received) {
                headEnd = end
                let (status, fields) = parseHead(received[..<end])
                if status == 101 {
                    if let why = wrongAccept(fields, key: headers[HTTPField.Name("Sec-WebSocket-Key")!]) {
                        close(fd)
                        return .badHandshake(why)
                    }
                    // Blocking from here: the relay polls before it reads.
                    return .upgraded(fd: fd, headers: fields, extra: Array(received[end...]))
                }
                wanted = fields[.contentLength].flatMap { Int($0) } ?? Int.max
                if status == 0 { break }
            }
        }
        close(fd)
        guard let end = headEnd else { return .unreachable("the API closed the connection before answering the WebSocket handshake") }
        let (status, fields) = parseHead(received[..<end])
        guard status > 0 else { return .unreachable("the API's answer to the WebSocket handshake is not HTTP") }
        return .answered(status: status, headers: Forwarder.relayable(fields), body: Data(received[end...].prefix(wanted)))
    }

    /// Why the API's `101` is not an answer to the key the app sent (and we passed on), if it is not:
    /// a client must fail such a handshake (RFC 6455 §4.1), and the app would, so the relay does too.
    static func wrongAccept(_ upstream: HTTPFields, key: String?) -> String? {
        let expected = WebSocketHandshake.accept(key: (key ?? "").trimmingCharacters(in: .whitespaces))
        let accepts = upstream[values: HTTPField.Name("Sec-WebSocket-Accept")!]
        guard accepts != [expected] else { return nil }
        guard let got = accepts.first else { return "its 101 has no Sec-WebSocket-Accept (expected \(expected))" }
        return "its 101 has Sec-WebSocket-Accept '\(got.prefix(60))'" + (accepts.count > 1 ? " (and \(accepts.count - 1) more)" : "")
            + ", not \(expected), the value for the key sent"
    }

    /// Just past the blank line that ends a head.
    private static func headEndIndex(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i + 4 }
        return nil
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) -> (status: Int, headers: HTTPFields) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { return (0, HTTPFields()) }
        var fields = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            fields.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (status, fields)
    }
}

import Foundation
import Stubd
import StubdTestSupport
import Testing

/// Clients and hosts that go slow on purpose (issue 38, items 9, 10 and 12): a head that trickles
/// in is cut at its deadline, slow heads give way to new clients when the server is full, a tunnel
/// whose host stops reading is closed at the idle limit, and a `Content-Length` libmicrohttpd
/// cannot read gets one clear answer.
@Suite(.serialized) struct SlowClientTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [RequestLogLine] = []
        func add(_ line: RequestLogLine) { lock.withLock { lines.append(line) } }
        var all: [RequestLogLine] { lock.withLock { lines } }
    }

    static func stubs() throws -> TempStubs {
        try TempStubs(["ok.json": #"{"ok": true}"#, "stubd.yml": "routes:\n  - { request: { method: POST, path: /upload }, response: { json: { stored: true } } }\n"])
    }

    /// Whether the server has closed `fd` (a read sees the end, or a reset), waiting up to `seconds`.
    static func closedByServer(_ fd: Int32, within seconds: Double) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(seconds * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }

    @Test func aHeadThatTricklesInIsCutAtItsDeadline() async throws {
        var options = StubServer.Options()
        options.connectionTimeoutSeconds = 2
        try await withServer(try Self.stubs().url, options: options) { server in
            let fd = try #require(connectLoopback(port: server.port))
            defer { close(fd) }
            _ = "GET /ok.json HTTP/1.1\r\nHost: x\r\n".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            // A header line every half second: libmicrohttpd's idle timeout (2 s) restarts with each.
            let started = Date()
            var cut = false
            for i in 0..<16 {
                _ = "X-Slow-\(i): 1\r\n".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                if Self.closedByServer(fd, within: 0.5) { cut = true; break }
            }
            #expect(cut, "a head still arriving after \(Date().timeIntervalSince(started)) s was never cut")
            #expect(Date().timeIntervalSince(started) < bound(4.5), "cut after \(Date().timeIntervalSince(started)) s")
        }
    }

    @Test func adminCallsAndStubsAreServedWhileSlowHeadsFillTheServer() async throws {
        raiseDescriptorLimit()
        var options = StubServer.Options()
        options.maxConnections = 200
        try await withServer(try Self.stubs().url, options: options) { server in
            let slow = openConnections(port: server.port, count: 200, sending: "GET /ok.json HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            defer { for fd in slow { close(fd) } }
            #expect(slow.count == 200)
            // Past the grace period a slow head gives its place to a new client.
            try await Task.sleep(for: .milliseconds(1300))
            for path in ["/__stubd/health", "/ok.json", "/__stubd/ui"] {
                let reply = rawExchange(port: server.port, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), timeout: 3)
                #expect(reply.hasPrefix("HTTP/1.1 200"), "\(path): \(reply.prefix(300))")
            }
        }
    }

    @Test(arguments: [("abc", 400), ("+5", 400), ("5, 5", 400), ("", 400), ("99999999999999999999999", 413)])
    func aContentLengthLibmicrohttpdCannotReadGetsOneClearAnswer(value: String, status: Int) async throws {
        let lines = Lines()
        var options = StubServer.Options()
        options.requestLog = { lines.add($0) }
        try await withServer(try Self.stubs().url, options: options) { server in
            let reply = rawExchange(port: server.port, Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\nhello".utf8), timeout: 2)
            #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(reply)")
            #expect(reply.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer, not two: \(reply)")
            #expect(reply.contains(status == 400 ? "is not a number of bytes" : "past 2^64"), "\(reply)")
            #expect(await eventually { lines.all.contains { $0.status == status } }, "\(lines.all.map(\.status))")
            // The server goes on answering.
            let after = try await get(server.baseURL, "/ok.json")
            #expect(after.status == 200)
        }
    }

    /// What nginx answers with its 497: a bare close says nothing of what went wrong (issue 38, item 14).
    @Test func plainHTTPSentToTheHTTPSPortIsToldSoInPlainHTTP() async throws {
        let ca = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-ca-\(UUID().uuidString)")
        let lines = Lines()
        var options = StubServer.Options()
        options.tls = TLSOptions(caDirectory: ca, onMainPort: true)
        options.requestLog = { lines.add($0) }
        try await withServer(try Self.stubs().url, options: options) { server in
            let reply = rawExchange(port: server.port, Array("GET /ok.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), timeout: 3)
            #expect(reply.hasPrefix("HTTP/1.1 400") && reply.contains("this port speaks HTTPS"), "\(reply)")
            #expect(await eventually { lines.all.contains { $0.status == 400 && $0.note == "plain HTTP sent to an HTTPS port" } })
            // HTTPS still works.
            let https = try curl(["--cacert", ca.appendingPathComponent("ca.pem").path, "-w", "\n%{http_code}", server.baseURL.absoluteString + "/ok.json"])
            #expect(https.output.hasSuffix("\n200"), "\(https.output)")
        }
    }

    @Test func aTunnelWhoseHostStopsReadingIsClosedAtTheIdleLimit() async throws {
        // Takes the connection and never reads from it.
        let deaf = try PythonUpstream(script: """
        import socket, time
        s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
        print(s.getsockname()[1], flush=True)
        held = []
        while True:
            c, _ = s.accept(); c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096); held.append(c)
        """)
        let lines = Lines()
        var options = StubServer.Options()
        options.passUnknownHosts = true
        options.tunnelIdleSeconds = 2
        options.requestLog = { lines.add($0) }
        try await withServer(exampleStubs, options: options) { server in
            let fd = try #require(connectLoopback(port: server.port))
            defer { close(fd) }
            let connect = "CONNECT [::ffff:127.0.0.1]:\(deaf.port) HTTP/1.1\r\nHost: x\r\n\r\n"
            _ = connect.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            var established = [UInt8](repeating: 0, count: 256)
            var tv = timeval(tv_sec: 3, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            let n = recv(fd, &established, established.count, 0)
            #expect(n > 0 && String(decoding: established[0..<max(0, n)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            // Fill every buffer between here and the host, then stop.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let chunk = [UInt8](repeating: 0x61, count: 65_536)
            let fillUntil = Date().addingTimeInterval(1)
            while Date() < fillUntil {
                if chunk.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) < 0 { try await Task.sleep(for: .milliseconds(20)) }
            }
            let stuck = Date()
            // The relay runs on a thread named for it, so hardening.py (and gdb, ps -L) can tell a
            // relay thread left behind from libdispatch's pool; Thread.name alone never reached Linux.
            #if os(Linux)
            #expect(Self.threadNames().contains("stubd-tunnel"), "\(Self.threadNames().sorted())")
            #endif
            let ended = await eventually(within: bound(6)) { lines.all.contains { $0.method == "CONNECT" } }
            #expect(ended, "the tunnel still held its thread and slot \(Date().timeIntervalSince(stuck)) s after the host stopped reading")
            let line = lines.all.first { $0.method == "CONNECT" }
            #expect(line?.note?.contains("the host took nothing for 2 s") == true, "\(String(describing: line?.note))")
            #expect(Date().timeIntervalSince(stuck) < bound(5))
        }
    }

    /// This process's thread names, as the kernel keeps them (`/proc/self/task/*/comm`).
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}

import Foundation
import StubdTestSupport
import Testing

/// Thousands of connections that never finish (issue 11): libmicrohttpd 0.9.75 froze for good when
/// they reached its own limit (about 2,040 with two workers). With the acceptor's cap, a normal
/// client is answered or turned away with a 503, places come back when clients leave, and SIGTERM
/// still stops the server.
@Suite(.serialized) struct ConnectionFloodTests {
    @Test func hangingAndSlowlorisFloodsNeverFreezeTheServer() async throws {
        raiseDescriptorLimit()
        let stubs = try TempStubs(["ok.json": "{}", "stubd.yml": "routes:\n  - { request: { path: /hang }, response: { fault: hang } }\n"])
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-flood-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--stubs", stubs.url.path, "--port", "0", "--no-watch", "--max-connections", "1000",
                             "--log-level", "warning"]
        // A file, not a pipe: nothing here could block the server's output.
        process.standardOutput = try FileHandle(forWritingTo: log)
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(await listeningPort(log))
        // A raw socket, not curl: starting a process while this one holds thousands of descriptors
        // crashes corelibs Foundation's Process (it uses select(), whose fd_set stops at 1,024).
        func normalClient() throws -> String {
            let reply = rawExchange(port: port, Array("GET /ok.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), timeout: 3)
            return reply.split(separator: " ").dropFirst().first.map(String.init) ?? "no answer"
        }

        var hanging = openConnections(port: port, count: 2_500, sending: "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(hanging.count == 2_500)
        let whileHanging = try normalClient()
        #expect(whileHanging == "503", "a full server turns a client away at once, got \(whileHanging)")

        let slow = openConnections(port: port, count: 2_500, sending: "GET /ok.json HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        let whileSlow = try normalClient()
        #expect(whileSlow == "503" || whileSlow == "200", "got \(whileSlow)")

        // The hanging clients leave: their places come back within a couple of seconds.
        for fd in hanging { close(fd) }
        hanging = []
        for fd in slow { close(fd) }
        let recovered = await eventually(within: 5) { (try? normalClient()) == "200" }
        #expect(recovered, "places held by clients that left were never released")

        // And with a thousand hanging connections held, SIGTERM still ends it within a second.
        let held = openConnections(port: port, count: 1_200, sending: "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        defer { for fd in held { close(fd) } }
        try await Task.sleep(for: .milliseconds(300))
        let signalled = Date()
        process.terminate()
        let exited = await eventually(within: 3) { !process.isRunning }
        #expect(exited)
        #expect(Date().timeIntervalSince(signalled) < bound(1), "SIGTERM took \(Date().timeIntervalSince(signalled)) s")
        #expect(process.terminationStatus == 0)
        try? FileManager.default.removeItem(at: log)
    }
}

/// Reads the port from `stubd serve`'s first line, written to `log`.
func listeningPort(_ log: URL) async -> UInt16? {
    var port: UInt16?
    _ = await eventually(within: 5) {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first, line.hasPrefix("stubd listening on http://127.0.0.1:") else { return false }
        port = UInt16(line.split(separator: ":")[2].prefix { $0.isNumber })
        return true
    }
    return port
}

/// Opens `count` TCP connections to loopback and sends `bytes` on each; returns their descriptors.
func openConnections(port: UInt16, count: Int, sending bytes: String) -> [Int32] {
    var fds: [Int32] = []
    for _ in 0..<count {
        guard let fd = connectLoopback(port: port) else { break }
        _ = bytes.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        fds.append(fd)
    }
    return fds
}

/// Lets this test process hold a few thousand sockets (the soft limit may be 1,024).
func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

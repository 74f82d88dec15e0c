import Foundation
import Stubd
import StubdTestSupport
import Testing

/// Hundreds of keep-alive connections (issue 23 item 1): in libmicrohttpd 0.9.75's epoll mode,
/// connections handed over with `MHD_add_connection` stopped making progress from about 256 on
/// (wrk -c512: ~1k req/s against ~130k at -c128), ESTABLISHED and silent while a new client was
/// answered at once. A parallel test run or a load test could freeze the server.
@Suite(.serialized) struct KeepAliveScaleTests {
    @Test func fiveHundredKeepAliveConnectionsAllKeepGettingAnswers() async throws {
        raiseDescriptorLimit()
        let stubs = try TempStubs(["ok.json": "{}"])
        var options = StubServer.Options()
        options.maxConnections = 2_000
        try await withServer(stubs.url, options: options) { server in
            let fds = openConnections(port: server.port, count: 512, sending: "")
            defer { for fd in fds { close(fd) } }
            #expect(fds.count == 512)
            // Lockstep rounds: every connection has one request in flight, as under wrk; a stalled
            // connection never answers, so the round ends at its deadline with it unanswered.
            let rounds = 12
            var answered = 0
            for round in 0..<rounds {
                let late = exchangeRound(fds, request: "GET /ok.json HTTP/1.1\r\nHost: x\r\n\r\n", deadline: bound(10))
                answered += fds.count - late
                try #require(late == 0, "round \(round + 1): \(late) of \(fds.count) keep-alive connections got no answer within \(bound(10)) s")
            }
            #expect(answered == rounds * fds.count)
        }
    }
}

/// Sends `request` once on every connection, then reads until each has a whole answer (headers and
/// the `Content-Length` body) or the deadline passes; returns how many got none.
func exchangeRound(_ fds: [Int32], request: String, deadline seconds: Double) -> Int {
    for fd in fds {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }
    var buffers = [[UInt8]](repeating: [], count: fds.count)
    var done = [Bool](repeating: false, count: fds.count)
    var remaining = fds.count
    let deadline = Date().addingTimeInterval(seconds)
    var scratch = [UInt8](repeating: 0, count: 16_384)
    while remaining > 0, Date() < deadline {
        var polled = fds.enumerated().filter { !done[$0.offset] }.map { pollfd(fd: $0.element, events: Int16(POLLIN), revents: 0) }
        let indices = fds.indices.filter { !done[$0] }
        guard poll(&polled, nfds_t(polled.count), 100) > 0 else { continue }
        for (slot, entry) in polled.enumerated() where entry.revents != 0 {
            let i = indices[slot]
            let n = recv(fds[i], &scratch, scratch.count, 0)
            guard n > 0 else { done[i] = true; remaining -= 1; buffers[i] = []; continue }
            buffers[i] += scratch[0..<n]
            if isWholeAnswer(buffers[i]) { done[i] = true; remaining -= 1 }
        }
    }
    // Connections closed by the server count as unanswered: their buffer was emptied above.
    return zip(done, buffers).filter { !$0.0 || !isWholeAnswer($0.1) }.count
}

/// Whether `bytes` hold a status line, headers and as many body bytes as `Content-Length` says.
private func isWholeAnswer(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else { return false }
    let head = text[..<end.lowerBound].lowercased()
    guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
          let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return false }
    return text.utf8.count - text[..<end.upperBound].utf8.count >= length
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// What a forward holds, whatever the target sends: a client that stops reading pauses the
/// transfer, a decompression bomb is cut at --max-decoded, headers that would not fit are a 502
/// (issue 23, items 5 and 9). Over real sockets; memory is read from a `stubd serve` child.
@Suite(.serialized) struct ForwardingLimitsTests {
    /// A GET for `path` on a new connection; nothing is read yet.
    static func request(port: UInt16, _ path: String) -> Int32? {
        guard let fd = connectLoopback(port: port) else { return nil }
        let text = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _ = text.utf8CString.withUnsafeBytes { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// Reads until `count` bytes came, the server closed or `timeout` passed; returns how many came
    /// and the last bytes (a body of hundreds of MB is counted, not kept).
    static func drain(_ fd: Int32, upTo count: Int, timeout: Double) -> (count: Int, tail: Data) {
        var tv = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(timeout)
        var total = 0
        var tail = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while total < count, Date() < deadline {
            let n = recv(fd, &buffer, min(buffer.count, count - total), 0)
            if n == 0 { break }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                break
            }
            total += n
            tail.append(contentsOf: buffer[0..<n])
            if tail.count > 4096 { tail = tail.suffix(1024) }
        }
        return (total, tail)
    }

    /// An empty folder for `stubd serve --proxy` to answer nothing from.
    static func emptyFolder() throws -> String { try TempStubs([:]).url.path }

    @Test func aClientThatStopsReadingPausesTheTransferInsteadOfFillingMemory() async throws {
        let upstream = try StreamingUpstream()
        let stubd = try ServeProcess(["--stubs", try Self.emptyFolder(), "--proxy", upstream.url.absoluteString, "--max-body", "1000000"])
        let fd = try #require(Self.request(port: stubd.port, "/endless"))
        defer { close(fd) }
        // A first MB: the answer is streaming.
        #expect(Self.drain(fd, upTo: 1 << 20, timeout: bound(20)).count == 1 << 20)
        // Then the client reads nothing: what the target has sent must settle (socket buffers, the
        // 1 MB held and a little), not run on at loopback speed (1 GiB is where this gives up).
        var sent = try upstream.sent(), settledSince = Date()
        let start = Date()
        while Date().timeIntervalSince(settledSince) < 1.5, sent < 1 << 30, Date().timeIntervalSince(start) < bound(30) {
            try await Task.sleep(for: .milliseconds(200))
            let now = try upstream.sent()
            if now != sent { sent = now; settledSince = Date() }
        }
        #expect(sent < 64 << 20, "the target sent \(sent >> 20) MB to a client that read 1 MB")
        let peak = stubd.peakResidentBytes
        #expect(peak > 0 && peak < Int(bound(150)) << 20, "stubd's peak RSS: \(peak >> 20) MB")
        print("endless body, client not reading: the target sent \(sent >> 20) MB; stubd's VmHWM \(peak >> 20) MB")
        // Reading again resumes it.
        #expect(Self.drain(fd, upTo: 20 << 20, timeout: bound(30)).count == 20 << 20)
        // The client leaves: the transfer stops and the log says why the body ended.
        close(fd)
        #expect(await eventually(within: bound(10)) { stubd.log.contains("the client left") }, "\(stubd.log)")
        let stopped = try upstream.sent()
        try await Task.sleep(for: .milliseconds(500))
        #expect(try upstream.sent() == stopped, "the target still sends after the client left")
    }

    @Test func aGzipBombIsNeitherHeldNorPassedOnPastMaxDecoded() async throws {
        let upstream = try StreamingUpstream()
        let stubd = try ServeProcess(["--stubs", try Self.emptyFolder(), "--proxy", upstream.url.absoluteString])
        // 1 MB on the wire, 1 GiB decoded; --max-decoded's default is 256 MiB.
        let fd = try #require(Self.request(port: stubd.port, "/bomb/1024"))
        defer { close(fd) }
        // The client reads nothing for a while: decoding must wait for it, not fill memory.
        let start = Date()
        while Date().timeIntervalSince(start) < 3, stubd.peakResidentBytes < 600 << 20 {
            try await Task.sleep(for: .milliseconds(100))
        }
        let waiting = stubd.peakResidentBytes
        #expect(waiting > 0 && waiting < Int(bound(150)) << 20, "stubd's peak RSS with the client not reading: \(waiting >> 20) MB")
        // Read at full speed: the body stops at 256 MiB (plus chunk framing), cut: no last chunk.
        let (count, tail) = Self.drain(fd, upTo: Int.max, timeout: bound(120))
        #expect(count > 255 << 20 && count < 257 << 20, "\(count) bytes")
        #expect(!String(decoding: tail, as: UTF8.self).hasSuffix("\r\n0\r\n\r\n"), "the cut body ended as if complete")
        let peak = stubd.peakResidentBytes
        #expect(peak < Int(bound(150)) << 20, "stubd's peak RSS: \(peak >> 20) MB")
        print("gzip bomb (1 MB → 1 GiB): \(count >> 20) MB passed on; stubd's VmHWM \(waiting >> 20) MB not reading, \(peak >> 20) MB after")
        #expect(await eventually(within: bound(10)) { stubd.log.contains("--max-decoded") }, "\(stubd.log)")
    }

    @Test func aBombPastMaxDecodedBeforeAByteWasSentIsA502AndNothingIsWritten() async throws {
        let upstream = try StreamingUpstream()
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder) { $0.maxDecodedBytes = 2_000_000 }
        try await withServer(folder, options: options) { (recorder: StubServer) async throws in
            let r = try await get(recorder.baseURL, "/bomb/64")
            #expect(r.status == 502)
            #expect(r.header("Content-Type") == "application/problem+json")
            let detail = r.json["detail"] as? String ?? ""
            #expect(detail.contains("2000000") && detail.contains("--max-decoded") && detail.contains("nothing was recorded"), "\(detail)")
        }
        let written = try RecordingTests.filesText(folder)
        #expect(written.isEmpty, "\(written.keys)")
    }

    /// Runs curl to a file; its exit code, status and the body.
    static func download(_ url: String, _ extra: [String] = []) throws -> (exit: Int32, status: String, body: Data) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-download-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try run("/usr/bin/curl", ["-s", "--max-time", "\(Int(bound(60)))", "-o", file.path, "-w", "%{http_code}"] + extra + [url])
        return (r.status, r.output, (try? Data(contentsOf: file)) ?? Data())
    }

    @Test func bigAnswersStillArriveWholeAndInOrder() async throws {
        let upstream = try StreamingUpstream()
        let folder = try TempStubs([:]).url
        var options = StubServer.Options()
        var forwarding = ForwardingOptions(target: upstream.url, scope: .everything)
        forwarding.maxBodyBytes = 1_000_000
        options.forwarding = forwarding
        try await withServer(folder, options: options) { (server: StubServer) async throws in
            // As fast as both ends go: 64 MiB through many pauses of the transfer.
            let plain = try Self.download(server.baseURL.absoluteString + "/big/67108864")
            #expect(plain.exit == 0 && plain.status == "200")
            #expect(plain.body.count == 64 << 20 && StreamingUpstream.isPattern(plain.body))
            // Gzip-encoded, to a client reading 8 MB a second: decoded, paused and resumed, nothing lost.
            let gzip = try Self.download(server.baseURL.absoluteString + "/gzip/16777216", ["--limit-rate", "8M"])
            #expect(gzip.exit == 0 && gzip.status == "200")
            #expect(gzip.body.count == 16 << 20 && StreamingUpstream.isPattern(gzip.body))
        }
    }

    /// `count` bytes of `X-RateLimit-Note-N` headers (the recorder keeps rate-limit headers, so a
    /// recorded route would replay them).
    static func bigHeaders(_ count: Int) -> [String] {
        var lines: [String] = []
        var left = count
        while left > 0 {
            let value = String(repeating: "n", count: min(left, 1000))
            lines.append("X-RateLimit-Note-\(lines.count): \(value)")
            left -= value.count
        }
        return lines
    }

    @Test func anAnswerWhoseHeadersDoNotFitIsA502AndNothingIsWritten() async throws {
        let upstream = try RawUpstream(answers: [
            "/huge": RawUpstream.response(headers: ["Content-Type: application/json"] + Self.bigHeaders(20_000), body: Data(#"{"a":1}"#.utf8)),
        ])
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder)
        try await withServer(folder, options: options) { (recorder: StubServer) async throws in
            let r = try Self.download(recorder.baseURL.absoluteString + "/huge")
            #expect(r.exit == 0 && r.status == "502", "curl exit \(r.exit), status \(r.status)")
            let detail = (try? JSONSerialization.jsonObject(with: r.body) as? [String: Any])?["detail"] as? String ?? ""
            #expect(detail.contains("headers") && detail.contains("nothing was recorded"), "\(detail)")
        }
        let written = try RecordingTests.filesText(folder)
        #expect(written.isEmpty, "\(written.keys)")
        try await withServer(folder) { (replay: StubServer) async throws in
            let r = try Self.download(replay.baseURL.absoluteString + "/huge")
            #expect(r.exit == 0 && r.status == "404", "curl exit \(r.exit), status \(r.status)")
        }
    }

    @Test func answerHeadersAroundTheLimitAreAnsweredOrRefusedNeverAnEmptyReply() async throws {
        // Answers whose headers take from 14 to 17 KB, after a small request head and after a 6 KB one.
        var answers: [String: Data] = [:]
        let sizes = Array(stride(from: 7_000, through: 17_000, by: 250))
        for size in sizes {
            answers["/h/\(size)"] = RawUpstream.response(headers: Self.bigHeaders(size), body: Data("ok".utf8))
        }
        let upstream = try RawUpstream(answers: answers)
        var options = StubServer.Options()
        options.forwarding = ForwardingOptions(target: upstream.url, scope: .everything)
        let padding = "X-Padding: " + String(repeating: "p", count: 6_000)
        try await withServer(try TempStubs([:]).url, options: options) { (server: StubServer) async throws in
            var seen: [String: Int] = [:]
            for (size, extra) in sizes.filter({ $0 >= 14_000 }).map({ ($0, [String]()) }) + sizes.filter({ $0 <= 10_500 }).map({ ($0, ["-H", padding]) }) {
                let r = try Self.download(server.baseURL.absoluteString + "/h/\(size)", extra)
                #expect(r.exit == 0 && (r.status == "200" || r.status == "502"),
                        "\(size) bytes of headers\(extra.isEmpty ? "" : " after a 6 KB request head"): curl exit \(r.exit), status \(r.status)")
                seen[r.status, default: 0] += 1
            }
            // Both sides of the limit were reached.
            #expect(seen["200", default: 0] > 0 && seen["502", default: 0] > 0, "\(seen)")
        }
    }
}

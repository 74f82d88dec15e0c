import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdProtocol
import StubdTestSupport
import Testing

/// Server-sent event stubs through `stubd serve`, read by real clients: curl, a Python reader of the
/// WHATWG format, and URLSession's delegate (corelibs Foundation on Linux has no `bytes(for:)`).
@Suite struct EventStreamTests {
    static let stubs: [String: String] = [
        "live/scores.sse": ": delay 10ms\nevent: goal\nid: g1\ndata: {\"home\":1}\n",
        "stubd.yml": """
            routes:
              - name: ticks
                request: { path: /ticks }
                response:
                  events:
                    - { id: "1", data: one }
                    - { id: "2", event: tick, data: "two\\nlines", delay: 300ms }
                    - { id: "3", data: three }
              - name: dropped
                request: { path: /dropped }
                response: { dropAfter: 1, events: [{ data: a }, { data: b }] }
              - name: stalled
                request: { path: /stalled }
                response: { stallAfter: 1, events: [{ data: a }, { data: b }] }
            """,
    ]

    static let virtualStubs = virtualClockFeed(response: """
        events:
          - { data: first }
          - { data: minute, delay: 60s }
          - { data: hour, delay: 1h }
        """)

    static let ticks = "id: 1\ndata: one\n\nevent: tick\nid: 2\ndata: two\ndata: lines\n\nid: 3\ndata: three\n\n"

    @Test func curlReadsTheEventsAsTheyComeDueAndTheStreamIsOneHit() throws {
        let server = try ServeProcess(serving: Self.stubs)
        defer { withExtendedLifetime(server) {} }
        let started = Date()
        let r = try curl(["-N", "-i", server.baseURL.absoluteString + "/ticks"])
        let took = Date().timeIntervalSince(started)
        #expect(r.status == 0)
        let parts = r.output.components(separatedBy: "\r\n\r\n")
        let head = parts[0].lowercased()
        #expect(head.hasPrefix("http/1.1 200"))
        #expect(head.contains("content-type: text/event-stream; charset=utf-8"))
        #expect(head.contains("cache-control: no-cache"))
        #expect(head.contains("transfer-encoding: chunked"))
        #expect(parts.dropFirst().joined(separator: "\r\n\r\n") == Self.ticks)
        #expect(took >= 0.3, "the second event waits 300ms")
        let hits = try JSONDecoder().decode(HitsReport.self, from: Data(try curl([server.baseURL.absoluteString + "/__stubd/hits"]).output.utf8))
        #expect(hits.routes.first { $0.route == "ticks" }?.hits == 1)
        let journal = try JSONDecoder().decode(JournalReport.self, from: Data(try curl([server.baseURL.absoluteString + "/__stubd/requests"]).output.utf8))
        #expect(journal.requests.filter { $0.path == "/ticks" }.count == 1)
        // An .sse file is a stub by the convention, with or without its extension.
        #expect(try curl(["-N", server.baseURL.absoluteString + "/live/scores"]).output == "event: goal\nid: g1\ndata: {\"home\":1}\n\n")
    }

    /// The reader keeps a line, or a CRLF, cut between two pieces, and the stream's last id.
    @Test func theClientsReaderTakesTheStreamInAnyPieces() {
        let text = ": hi\r\nretry: 500\r\nevent: goal\r\nid: 7\r\ndata: a\r\ndata: b\r\n\r\ndata: c\n\n"
        var reader = ServerSentEventReader()
        let events = Array(text.utf8).map { Data([$0]) }.flatMap { reader.feed($0) }
        #expect(events == [.init(type: "goal", data: "a\nb", id: "7"), .init(data: "c", id: "7")])
        #expect(reader.lastEventID == "7")
        #expect(reader.retryMilliseconds == 500)
    }

    @Test func lastEventIDResumesAfterThatEvent() throws {
        let server = try ServeProcess(serving: Self.stubs)
        defer { withExtendedLifetime(server) {} }
        let url = server.baseURL.absoluteString + "/ticks"
        #expect(try curl(["-N", "-H", "Last-Event-ID: 2", url]).output == "id: 3\ndata: three\n\n")
        // An id the stream does not have: from the start, as a server that lost track replays.
        #expect(try curl(["-N", "-H", "Last-Event-ID: 9", url]).output == Self.ticks)
    }

    /// curl's exit codes: 18, a chunked body cut before its last chunk; 28, its own timeout.
    @Test func aDroppedStreamIsCutAndAStalledOneHangs() throws {
        let server = try ServeProcess(serving: Self.stubs)
        defer { withExtendedLifetime(server) {} }
        let dropped = try curl(["-N", server.baseURL.absoluteString + "/dropped"])
        #expect(dropped.status == 18)
        #expect(dropped.output == "data: a\n\n")
        let stalled = try run("/usr/bin/curl", ["-s", "-N", "--max-time", "1", server.baseURL.absoluteString + "/stalled"])
        #expect(stalled.status == 28)
        #expect(stalled.output == "data: a\n\n")
    }

    /// Delays on a virtual clock wait for the admin API to move it: an hour's delay comes at once
    /// when the clock is advanced by an hour, and not before. Read by a Python reader of the format.
    @Test func onAVirtualClockEventsComeWhenTheClockIsMoved() throws {
        let server = try ServeProcess(serving: Self.virtualStubs)
        defer { withExtendedLifetime(server) {} }
        let script = clockAdvancePython + #"""
            import http.client, json, sys, threading, time, urllib.request
            port = int(sys.argv[1])
            def events(resp):
                # The WHATWG reading: fields until a blank line, which dispatches the event.
                data, kind = [], "message"
                while True:
                    line = resp.readline()
                    if not line:
                        return
                    line = line.decode().rstrip("\r\n")
                    if line == "":
                        if data:
                            yield kind, "\n".join(data)
                        data, kind = [], "message"
                        continue
                    if line.startswith(":"):
                        continue
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "data":
                        data.append(value)
                    elif name == "event":
                        kind = value
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/feed", headers={"Accept": "text/event-stream"})
            resp = conn.getresponse()
            assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream"), resp.getheaders()
            moved = {}
            def mover():
                for seconds in (60, 3600):
                    time.sleep(0.4)
                    moved[seconds] = time.monotonic()
                    advance(seconds)
            started = time.monotonic()
            got = []
            for kind, data in events(resp):
                got.append((data, time.monotonic()))
                if len(got) == 1:
                    threading.Thread(target=mover, daemon=True).start()
            assert [d for d, _ in got] == ["first", "minute", "hour"], got
            assert got[1][1] >= moved[60], "minute came before the clock moved"
            assert got[2][1] >= moved[3600], "hour came before the clock moved"
            assert time.monotonic() - started < 4, "waited in real time"
            print("ok")
            """#
        let r = try run(testPython, ["-c", script, String(server.port)])
        #expect(r.output == "ok\n", "\(r.error)")
    }

    /// URLSession's delegate sees each event as it comes: the first before the clock moves, the rest after.
    @Test func urlSessionReceivesEachEventWhenItIsDue() async throws {
        let server = try ServeProcess(serving: Self.virtualStubs)
        defer { withExtendedLifetime(server) {} }
        let received = Received()
        let session = URLSession(configuration: .ephemeral, delegate: received, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("feed"))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        session.dataTask(with: request).resume()
        #expect(await eventually { received.text == "data: first\n\n" })
        try await Task.sleep(for: .milliseconds(200))
        #expect(received.text == "data: first\n\n", "the next event waits for the clock")
        _ = try curl(["--json", #"{"seconds":60}"#, server.baseURL.absoluteString + "/__stubd/clock/advance"])
        #expect(await eventually { received.text == "data: first\n\ndata: minute\n\n" })
        #expect(!received.finished)
        _ = try curl(["--json", #"{"seconds":3600}"#, server.baseURL.absoluteString + "/__stubd/clock/advance"])
        #expect(await eventually { received.finished })
        #expect(received.text == "data: first\n\ndata: minute\n\ndata: hour\n\n")
        #expect(received.failure == nil)
        // StubdClient's reader, fed the bytes in the pieces URLSession gave them.
        var reader = ServerSentEventReader()
        #expect(received.chunks.flatMap { reader.feed($0) } == ["first", "minute", "hour"].map { ServerSentEventReader.Event(data: $0) })
    }

    final class Received: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let state = Locked<(data: Data, chunks: [Data], finished: Bool, failure: String?)>((Data(), [], false, nil))
        var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }
        var chunks: [Data] { state.withLock { $0.chunks } }
        var finished: Bool { state.withLock { $0.finished } }
        var failure: String? { state.withLock { $0.failure } }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            state.withLock { $0.data.append(data); $0.chunks.append(data) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            state.withLock { $0.finished = true; $0.failure = error.map { "\($0)" } }
        }
    }

    /// `template: true`: each event rendered with the request, its number, the route's hit count and
    /// the time it is due on the session's clock.
    @Test func templatedEventsCarryTheRequestTheirNumberAndTheirTime() throws {
        let server = try ServeProcess(serving: ["stubd.yml": """
            clock: { virtual: "2026-01-01T00:00:00Z" }
            routes:
              - name: echo
                request: { path: "/echo/{room}" }
                response:
                  template: true
                  events:
                    - { id: "{{eventNumber}}", data: "{{request.path.room}} {{request.query.q}} #{{eventNumber}} at {{now}}" }
                    - { id: "{{eventNumber}}", event: "{{request.path.room}}", data: "hits {{hits}} at {{now}}", delay: 90s }
            """])
        defer { withExtendedLifetime(server) {} }
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        reader.arguments = ["-s", "-N", "--max-time", "5", server.baseURL.absoluteString + "/echo/lobby?q=hi"]
        let out = Pipe()
        reader.standardOutput = out
        try reader.run()
        let first = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        #expect(first == "id: 1\ndata: lobby hi #1 at 2026-01-01T00:00:00Z\n\n")
        _ = try curl(["--json", #"{"seconds":90}"#, server.baseURL.absoluteString + "/__stubd/clock/advance"])
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(rest == "event: lobby\nid: 2\ndata: hits 1 at 2026-01-01T00:01:30Z\n\n")
        #expect(reader.terminationStatus == 0)
    }
}

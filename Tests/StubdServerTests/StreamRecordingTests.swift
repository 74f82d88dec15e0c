import Foundation
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// `stubd record` and `stubd drift` for server-sent events, against a real upstream: a Python server
/// streaming an OpenAI-style answer with pauses between its chunks.
@Suite(.serialized) struct StreamRecordingTests {
    /// The real API: `GET /v1/stream` sends three `data:` chunks 150 ms apart (a keep-alive comment
    /// and an unknown field between them, which a client never sees), then `data: [DONE]`. In mode
    /// v2 the chunks' `delta.content` is `delta.text`, and a `usage` event comes before the end.
    static let script = #"""
        import http.server, json, sys, time
        mode_file = sys.argv[1]
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *a): pass
            def do_GET(self):
                if self.path != "/v1/stream":
                    self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
                mode = open(mode_file).read().strip()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                key = "text" if mode == "v2" else "content"
                for i, word in enumerate(["Hel", "lo", "!"]):
                    if i: time.sleep(0.15)
                    chunk = {"id": "c1", "choices": [{"index": 0, "delta": {key: word}}]}
                    self.wfile.write(b": keep-alive\n" if i == 1 else b"")
                    self.wfile.write(("id: %d\ndata: %s\nunknown: x\n\n" % (i + 1, json.dumps(chunk))).encode())
                    self.wfile.flush()
                if mode == "v2":
                    self.wfile.write(b'event: usage\ndata: {"tokens": 3}\n\n')
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
        s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """#

    typealias API = SwitchableUpstream

    /// The API `script` serves, in mode v1 until a test sets another.
    static func api() throws -> API { try API(script: script) }

    /// Records `GET /v1/stream` from `api` into a new folder; the recorder's client gets the stream.
    func recorded(from api: API) async throws -> (folder: URL, relayed: String) {
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: api.upstream.url, recordingInto: folder, rules: RecordingRules(targetOrigin: api.upstream.url.origin))
        let recorder = try StubServer(stubs: folder, options: options)
        defer { recorder.stopSynchronously() }
        let relayed = try curl(["-sN", recorder.baseURL.absoluteString + "/v1/stream"])
        // The stream reaches the client as it comes and is written once it has ended: just after the client saw its end.
        let file = folder.appendingPathComponent("v1/stream.sse")
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: file.path) { usleep(20_000) }
        return (folder, relayed.output)
    }

    static func chunk(_ id: Int, _ word: String, key: String = "content") -> String {
        #"id: \#(id)"# + "\n" + #"data: {"id": "c1", "choices": [{"index": 0, "delta": {"\#(key)": "\#(word)"}}]}"# + "\n\n"
    }

    @Test func anEventStreamIsRecordedAsAnSSEFileWithItsTimingAndReplaysSo() async throws {
        let api = try StreamRecordingTests.api()
        let (folder, relayed) = try await recorded(from: api)
        #expect(relayed.contains("data: [DONE]"), "the client got the stream through the recorder: \(relayed)")
        // A GET with nothing more than its path: a convention file, in the .sse wire format.
        let file = folder.appendingPathComponent("v1/stream.sse")
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let delays = lines.filter { $0.hasPrefix(": delay ") }.compactMap { Int($0.dropFirst(8).dropLast(2)) }
        // The first event may carry the few milliseconds the API took to send it after its head.
        let pauses = delays.filter { $0 >= 100 }
        #expect(pauses.count == 2 && pauses.allSatisfy { $0 < 1000 } && delays.count - pauses.count <= 1, "the API's 150 ms pauses: \(text)")
        let events = lines.filter { !$0.hasPrefix(":") }.joined(separator: "\n")
        #expect(events == Self.chunk(1, "Hel") + Self.chunk(2, "lo") + Self.chunk(3, "!") + "data: [DONE]\n\n",
                "comments and unknown fields left out, as a client never sees them: \(text)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(StubsRecorder.manifestName).path))

        // Replayed without the API: the same events, as an event stream, with the pauses.
        try await withServer(folder) { server in
            let started = Date()
            let r = try curl(["-sN", "-i", server.baseURL.absoluteString + "/v1/stream"])
            let took = Date().timeIntervalSince(started)
            let parts = r.output.components(separatedBy: "\r\n\r\n")
            #expect(parts[0].lowercased().contains("content-type: text/event-stream"), "\(r.output)")
            #expect(parts.dropFirst().joined(separator: "\r\n\r\n") == events, "\(r.output)")
            #expect(took >= 0.26, "the two recorded pauses are replayed (took \(took) s)")
        }
    }

    @Test func driftComparesAStreamsEventsNamesIdsAndDataShape() async throws {
        let api = try StreamRecordingTests.api()
        let (folder, _) = try await recorded(from: api)
        let changed = try DriftTests.findings(of: folder, against: api.upstream.url) { try api.set("v2") }
        #expect(changed.findings == ["shape GET /v1/stream /message/*/data/choices/*/delta/content",
                                     "shape GET /v1/stream /message/*/data/choices/*/delta/text",
                                     "shape GET /v1/stream /usage"], "\(changed.output)")
    }

    /// While recording, the client gets each event as the API sends it, not once the API has
    /// finished: its first byte comes before the API's two 150 ms pauses are over, and the stream
    /// is recorded all the same.
    @Test func theClientGetsEachEventAsItComesWhileTheStreamIsRecorded() async throws {
        let api = try StreamRecordingTests.api()
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: api.upstream.url, recordingInto: folder, rules: RecordingRules(targetOrigin: api.upstream.url.origin))
        let recorder = try StubServer(stubs: folder, options: options)
        defer { recorder.stopSynchronously() }
        let r = try curl(["-sN", "-o", "/dev/null", "-w", "%{time_starttransfer} %{time_total}", recorder.baseURL.absoluteString + "/v1/stream"])
        let times = r.output.split(separator: " ").compactMap { Double($0) }
        #expect(times.count == 2 && times[1] - times[0] >= 0.2,
                "the first event came 300 ms before the last (first byte, end in seconds: \(r.output))")
        // Written once the stream has ended, on the forward's thread: just after the client saw its end.
        let file = folder.appendingPathComponent("v1/stream.sse")
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: file.path) { usleep(20_000) }
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        #expect(text.contains("data: [DONE]") && text.contains(": delay "), "recorded as it was relayed: \(text)")
    }
}

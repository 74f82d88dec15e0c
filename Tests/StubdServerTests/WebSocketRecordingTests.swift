import Foundation
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// `stubd record` and `stubd drift` for WebSocket conversations, against a real upstream (Python's
/// `websockets`) and a real client (the same library): recorded through the relay, then served from
/// the folder to the same client, which must get the same messages and close.
@Suite(.serialized) struct WebSocketRecordingTests {
    /// The real API: a welcome on the open; `auth` is answered with the token echoed, `subscribe` with
    /// `subscribed` and, 100 ms later, an update; `bye` with a close 4000. In mode v2 the welcome's
    /// `user` is an object, the update's `n` a string, and `bye` closes with 4001.
    static let script = #"""
        import asyncio, json, sys
        from websockets.asyncio.server import serve
        mode_file = sys.argv[1]
        async def handler(ws):
            mode = open(mode_file).read().strip()
            await ws.send(json.dumps({"type": "welcome", "user": "ann" if mode == "v1" else {"name": "ann"}}))
            async for message in ws:
                m = json.loads(message)
                if m["type"] == "auth":
                    await ws.send(json.dumps({"type": "authed", "token": m["token"]}))
                elif m["type"] == "subscribe":
                    await ws.send(json.dumps({"type": "subscribed", "topic": m["topic"]}))
                    await asyncio.sleep(0.1)
                    await ws.send(json.dumps({"type": "update", "n": 1 if mode == "v1" else "1"}))
                elif m["type"] == "bye":
                    await ws.close(4000 if mode == "v1" else 4001, "see you")
                    return
        async def main():
            async with serve(handler, "127.0.0.1", 0) as server:
                print(server.sockets[0].getsockname()[1], flush=True)
                await asyncio.Future()
        asyncio.run(main())
        """#

    /// The app: what it received, in order, then the close it got; and how long the update took.
    static let client = #"""
        import asyncio, json, sys, time, websockets
        from websockets.exceptions import ConnectionClosed
        async def main(url):
            got = []
            async with websockets.connect(url) as ws:
                got.append(await ws.recv())
                await ws.send(json.dumps({"type": "auth", "token": "tok-SECRET-123"}))
                got.append(await ws.recv())
                await ws.send(json.dumps({"type": "subscribe", "topic": "scores"}))
                got.append(await ws.recv())
                started = time.monotonic()
                got.append(await ws.recv())
                waited = time.monotonic() - started
                await ws.send(json.dumps({"type": "bye"}))
                try:
                    await asyncio.wait_for(ws.recv(), 3)
                    got.append("no close")
                except ConnectionClosed as e:
                    got.append("close %s %s" % (e.rcvd.code, e.rcvd.reason))
            print(json.dumps(got))
            print("%.3f" % waited)
        asyncio.run(main(sys.argv[1]))
        """#

    typealias API = SwitchableUpstream

    /// The API `script` serves, in mode v1 until a test sets another.
    static func api() throws -> API {
        try requirePython(modules: "websockets")
        return try API(script: script)
    }

    /// The client's messages and close, and the seconds it waited for the update.
    static func converse(_ base: URL, path: String = "/chat") throws -> (messages: [String], waited: Double, output: String) {
        let ws = base.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + path
        let r = try run(testPython, ["-c", client, ws])
        let lines = r.output.split(separator: "\n").map(String.init)
        let messages = lines.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String] } ?? []
        return (messages, lines.count > 1 ? Double(lines[1]) ?? 0 : 0, r.output + r.error)
    }

    /// Records the conversation on `/chat` from `api` into a new folder.
    static func recorded(from api: API) throws -> (folder: URL, relayed: [String], output: String) {
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: api.upstream.url, recordingInto: folder, rules: RecordingRules(targetOrigin: api.upstream.url.origin))
        let recorder = try StubServer(stubs: folder, options: options)
        defer { recorder.stopSynchronously() }
        let (messages, _, output) = try converse(recorder.baseURL)
        // The recording is written when the conversation ends, on the relay's thread, just after the client saw the close.
        let file = folder.appendingPathComponent("chat.ws")
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: file.path) { usleep(20_000) }
        return (folder, messages, output)
    }

    @Test func aWebSocketConversationIsRecordedAsAWsScriptAndReplaysTheSame() async throws {
        let api = try WebSocketRecordingTests.api()
        let (folder, relayed, output) = try Self.recorded(from: api)
        #expect(relayed == [#"{"type": "welcome", "user": "ann"}"#, #"{"type": "authed", "token": "tok-SECRET-123"}"#,
                            #"{"type": "subscribed", "topic": "scores"}"#, #"{"type": "update", "n": 1}"#, "close 4000 see you"],
                "the app talked to the API through the recorder: \(output)")
        // A GET with nothing but its path: a convention file, `chat.ws`, the script a hand-written stub would be.
        let text = try String(contentsOf: folder.appendingPathComponent("chat.ws"), encoding: .utf8)
        #expect(!text.contains("tok-SECRET-123"), "the token the app sent is masked: \(text)")
        #expect(text.contains(#"match: { json: {"type":"auth"} }"#), "a message that held a secret is matched without it: \(text)")
        #expect(text.contains("code: 4000"), "\(text)")
        let after = text.split(separator: "\n").first { $0.contains("update") }.flatMap { line in
            line.range(of: "after: ").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) ?? 0 }
        }
        #expect((after ?? 0) >= 90 && (after ?? 0) < 1000, "the update came 100 ms after the subscribe: \(text)")

        // Served from the folder, the API unplugged: the same client gets the same conversation.
        try await withServer(folder) { server in
            let (replayed, waited, output) = try Self.converse(server.baseURL)
            #expect(replayed == [relayed[0], #"{"type": "authed", "token": "<redacted>"}"#, relayed[2], relayed[3], relayed[4]],
                    "\(output)\n\(text)")
            #expect(waited >= 0.08, "the update's 100 ms are replayed (waited \(waited) s)")
        }
    }

    @Test func driftComparesAConversationsMessagesShapeAndCloseCode() async throws {
        let api = try WebSocketRecordingTests.api()
        let (folder, relayed, output) = try Self.recorded(from: api)
        #expect(relayed.count == 5, "\(output)")
        let changed = try DriftTests.findings(of: folder, against: api.upstream.url) { try api.set("v2") }
        #expect(changed.findings == ["shape GET /chat /open/*/user", "shape GET /chat /replies/1/*/n",
                                     "shape GET /chat /close/4000", "shape GET /chat /close/4001"], "\(changed.output)")
    }

    /// A WebSocket relayed to a `wss://` API (`--proxy https://…`) cannot be: the relay has no TLS
    /// client. The app's 502 says so and what to do instead, rather than "not supported yet".
    @Test func relayingToAWssAPISaysWhyItCannot() throws {
        let folder = try TempStubs([:])
        let server = try ServeProcess(["--stubs", folder.url.path, "--proxy", "https://127.0.0.1:9"])
        defer { withExtendedLifetime(server) {} }
        let r = try run(testPython, ["-c", rawWebSocketPython + #"""
            import json, sys
            port = int(sys.argv[1])
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            upgrade(s, "/chat")
            got = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                got += chunk
                if b"\r\n\r\n" in got:
                    head, body = got.split(b"\r\n\r\n", 1)
                    length = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
                    if length and len(body) >= length[0]: break
            head, body = got.split(b"\r\n\r\n", 1)
            assert head.startswith(b"HTTP/1.1 502"), head
            detail = json.loads(body)["detail"]
            assert "https://… target (wss://)" in detail and "no TLS client" in detail and "plain http:// (ws://)" in detail, detail
            print("ok")
            """#, String(server.port)])
        #expect(r.output + r.error == "ok\n")
    }
}

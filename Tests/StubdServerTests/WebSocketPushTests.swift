import Foundation
import Stubd
import StubdClient
import StubdProtocol
import StubdTestSupport
import Testing

/// A test pushes messages to the app's open WebSockets and reads what the app sent
/// (`/__stubd/websockets`, `server.webSockets("chat")`), per session, through `stubd serve` with
/// Python's `websockets` as the app.
@Suite struct WebSocketPushTests {
    static let stubs: [String: String] = [
        "stubd.yml": "routes:\n" + chatRoute() + """
              - request: { path: /plain }
                response: { json: { ok: true } }
            """,
        "rooms/lobby.ws": "messages: [{ text: lobby }]\n",
    ]

    /// Admin calls from Python, with the sockets: a push reaches each socket of the route open in the
    /// session and no other session's; what the app sent is listed in order with its time; with no
    /// socket open a push is a 409, and a name that is no WebSocket route a 404 naming those there are.
    @Test func aPushReachesTheSessionsOpenSocketsAndWhatTheAppSentIsListed() throws {
        try requirePython(modules: "websockets")
        let folder = try TempStubs(Self.stubs)
        let server = try ServeProcess(["--stubs", folder.url.path])
        defer { withExtendedLifetime(server) {} }
        let r = try run(testPython, ["-c", #"""
            import asyncio, base64, json, sys, urllib.request, urllib.error, websockets
            port = int(sys.argv[1])
            base = f"http://127.0.0.1:{port}"
            def admin(method, path, body=None):
                req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                             headers={"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(req, timeout=5) as r: return r.status, json.loads(r.read())
                except urllib.error.HTTPError as e:
                    return e.code, json.loads(e.read())
            async def call(*a): return await asyncio.to_thread(admin, *a)
            async def main():
                a1 = await websockets.connect(f"ws://127.0.0.1:{port}/__s/a/chat")
                a2 = await websockets.connect(f"ws://127.0.0.1:{port}/__s/a/chat")
                b = await websockets.connect(f"ws://127.0.0.1:{port}/__s/b/chat")
                for ws in (a1, a2, b): assert await ws.recv() == "welcome"
                status, listing = await call("GET", "/__s/a/__stubd/websockets")
                assert status == 200 and listing["session"] == "a", listing
                chat = [w for w in listing["webSockets"] if w["route"] == "chat"][0]
                assert chat["open"] == 2 and chat["signature"] == "GET /chat", chat
                assert [w["route"] for w in listing["webSockets"]] == ["chat", "GET /rooms/lobby"], listing
                status, pushed = await call("POST", "/__s/a/__stubd/websockets/chat/messages", {"text": "to a"})
                assert status == 200 and pushed == {"route": "chat", "session": "a", "sockets": 2}, (status, pushed)
                assert await a1.recv() == "to a" and await a2.recv() == "to a"
                status, _ = await call("POST", "/__s/a/__stubd/websockets/chat/messages", {"binary": base64.b64encode(b"\x00\x01").decode()})
                assert status == 200 and await a1.recv() == b"\x00\x01" and await a2.recv() == b"\x00\x01"
                # Session b's socket got neither: the next thing it hears is its own push.
                status, pushed = await call("POST", "/__s/b/__stubd/websockets/GET%20/chat/messages", {"text": "to b"})
                assert status == 200 and pushed["sockets"] == 1, pushed
                assert await b.recv() == "to b"
                # One socket's messages come in order; the pong says both were read before a2 sends.
                await a1.send("hello from the app"); await a1.send("ping"); assert await a1.recv() == "pong"
                await a2.send(b"\x07")
                for _ in range(100):
                    status, got = await call("GET", "/__s/a/__stubd/websockets/chat/messages")
                    if got["total"] == 3: break
                    await asyncio.sleep(0.02)
                assert status == 200 and got["total"] == 3, got
                assert [(m["index"], m.get("text"), m.get("binary")) for m in got["messages"]] == \
                    [(1, "hello from the app", None), (2, "ping", None), (3, None, "Bw==")], got
                assert got["messages"][0]["time"].endswith("Z"), got
                status, later = await call("GET", "/__s/a/__stubd/websockets/chat/messages?after=2")
                assert [m["index"] for m in later["messages"]] == [3], later
                status, other = await call("GET", "/__s/b/__stubd/websockets/chat/messages")
                assert other["total"] == 0 and other["messages"] == [], other
                status, listing = await call("GET", "/__s/a/__stubd/websockets")
                chat = [w for w in listing["webSockets"] if w["route"] == "chat"][0]
                assert chat["received"] == 3 and chat["sent"] == 7, chat   # welcome and the two pushes on two sockets, and the pong
                for ws in (a1, a2, b): await ws.close()
                for _ in range(100):
                    status, listing = await call("GET", "/__s/a/__stubd/websockets")
                    if listing["webSockets"][0]["open"] == 0: break
                    await asyncio.sleep(0.02)
                status, refused = await call("POST", "/__s/a/__stubd/websockets/chat/messages", {"text": "anyone?"})
                assert status == 409 and "no WebSocket of 'chat' is open" in refused["detail"] and "/__s/a/chat" in refused["detail"], refused
                status, refused = await call("POST", "/__stubd/websockets/chta/messages", {"text": "x"})
                assert status == 404 and "WebSocket routes: chat, GET /rooms/lobby" in refused["detail"], refused
                status, refused = await call("POST", "/__stubd/websockets/chat/messages", {"txt": "x"})
                assert status == 400, refused
                print("ok")
            asyncio.run(main())
            """#, String(server.port)])
        #expect(r.output + r.error == "ok\n")
    }

    /// A hit counted means a push reaches the socket: the test's wait is held before the app
    /// connects, fires as the handshake's hit is counted, and the push goes out on the same kept-alive
    /// connection at once, 60 times (a session each). Before, the socket joined its session only when
    /// libmicrohttpd handed it over after writing the 101, and such a push was often a 409 "no WebSocket
    /// of 'chat' is open"; now it is held and sent right after the open messages.
    @Test func aPushRightAfterTheHitReachesTheSocket() throws {
        try requirePython(modules: "websockets")
        let folder = try TempStubs(Self.stubs)
        let server = try ServeProcess(["--stubs", folder.url.path])
        defer { withExtendedLifetime(server) {} }
        let r = try run(testPython, ["-c", rawWebSocketPython + #"""
            import http.client, json, sys, threading, time
            port = int(sys.argv[1])
            refused = []
            for i in range(60):
                admin = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                waited = {}
                # The wait's response must be read before the next request on the connection.
                def wait_and_push():
                    admin.request("GET", f"/__s/r{i}/__stubd/hits/wait?route=chat&count=1&timeout=5")
                    w = admin.getresponse(); w.read()
                    waited["status"] = w.status
                    admin.request("POST", f"/__s/r{i}/__stubd/websockets/chat/messages", body=json.dumps({"text": f"push {i}"}),
                                  headers={"Content-Type": "application/json"})
                    r = admin.getresponse()
                    waited["push"] = (r.status, r.read())
                t = threading.Thread(target=wait_and_push)
                t.start()
                time.sleep(0.01)   # the wait is held before the app connects
                app = socket.create_connection(("127.0.0.1", port), timeout=5)
                upgrade(app, f"/__s/r{i}/chat")
                t.join()
                assert waited["status"] == 200, waited
                if waited["push"][0] != 200:
                    refused.append((i, waited["push"]))
                else:
                    got = b""
                    while not (b"welcome" in got and f"push {i}".encode() in got):
                        chunk = app.recv(4096)
                        assert chunk, got
                        got += chunk
                    assert got.index(b"welcome") < got.index(f"push {i}".encode()), got
                app.close(); admin.close()
            assert not refused, f"{len(refused)} of 60 pushes right after the hit refused: {refused[0]}"
            print("ok")
            """#, String(server.port)])
        #expect(r.output + r.error == "ok\n", "the server printed: \(server.log)")
    }

    /// A handshake refused for its subprotocols (400: the client offered only ones the stub does not
    /// speak) opens nothing: a push after it is a 409 "no WebSocket open". Before, the match's
    /// "connecting" mark stayed behind, and every later push was held for a socket that never came
    /// (200, `sockets: 1`).
    @Test func aHandshakeRefusedForItsSubprotocolsLeavesNothingToPushTo() throws {
        try requirePython(modules: "websockets")
        let folder = try TempStubs(["stubd.yml": "routes:\n" + chatRoute(protocols: ["chat.v1"])])
        let server = try ServeProcess(["--stubs", folder.url.path])
        defer { withExtendedLifetime(server) {} }
        let r = try run(testPython, ["-c", #"""
            import base64, http.client, json, os, socket, sys
            port = int(sys.argv[1])
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall((f"GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: other.v9\r\n\r\n").encode())
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = s.recv(4096)
                assert chunk, head
                head += chunk
            assert head.startswith(b"HTTP/1.1 400"), head
            s.close()
            admin = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            admin.request("POST", "/__stubd/websockets/chat/messages", body=json.dumps({"text": "anyone?"}),
                          headers={"Content-Type": "application/json"})
            r = admin.getresponse()
            body = json.loads(r.read())
            assert r.status == 409 and "no WebSocket of 'chat' is open" in body["detail"], (r.status, body)
            admin.request("GET", "/__stubd/websockets")
            listing = json.loads(admin.getresponse().read())
            assert listing["webSockets"][0]["open"] == 0, listing
            print("ok")
            """#, String(server.port)])
        #expect(r.output + r.error == "ok\n")
    }

    /// The Swift client: `webSockets("chat")` in a session sends text, JSON and bytes to the app's
    /// socket and reads back what the app answered, with a route named by its path too.
    @Test func theSwiftClientPushesToASessionsSocketAndReadsWhatTheAppSent() async throws {
        try requirePython(modules: "websockets")
        let folder = try TempStubs(Self.stubs)
        let server = try ServeProcess(["--stubs", folder.url.path])
        defer { withExtendedLifetime(server) {} }
        let app = Process()
        app.executableURL = URL(fileURLWithPath: testPython)
        app.arguments = ["-c", #"""
            import asyncio, sys, websockets
            async def main(port):
                async with websockets.connect(f"ws://127.0.0.1:{port}/__s/t1/chat") as ws:
                    assert await ws.recv() == "welcome"
                    print("open", flush=True)
                    for _ in range(3):
                        got = await ws.recv()
                        await ws.send("got " + (got if isinstance(got, str) else got.hex()))
                    print("done", flush=True)
            asyncio.run(main(int(sys.argv[1])))
            """#, String(server.port)]
        let out = Pipe()
        app.standardOutput = out
        app.standardError = out
        try app.run()
        defer { if app.isRunning { app.terminate() } }
        let first = String(decoding: out.fileHandleForReading.firstLine(), as: UTF8.self)
        #expect(first == "open\n")

        let session = StubdClient(baseURL: server.baseURL).session("t1")
        let chat = session.webSockets("chat")
        #expect(try await chat.openSockets() == 1)
        #expect(try await StubdClient(baseURL: server.baseURL).webSockets("chat").openSockets() == 0, "another session's socket")
        #expect(try await chat.send("hi") == 1)
        #expect(try await chat.send(json: ["type": "score", "home": "2"]) == 1)
        #expect(try await session.webSockets("GET /chat").send(data: Data([0xCA, 0xFE])) == 1)
        app.waitUntilExit()
        let received = try await chat.received()
        #expect(received.map(\.text) == ["got hi", #"got {"home":"2","type":"score"}"#, "got cafe"])
        #expect(received.map(\.index) == [1, 2, 3])
        #expect(try await chat.received(after: 2).map(\.index) == [3])
        await #expect(throws: StubdError.self) { try await chat.send("nobody is listening") }
    }

    /// A client that leaves while its WebSocket answer is held (`delay:`) opens nothing: once its request
    /// has ended a push is refused as with no socket (409), and none is listed as open. Before, the
    /// match's "connecting" mark stayed, and every later push was held for a socket that never came
    /// (200, `sockets: 1`).
    @Test func aClientGoneDuringTheDelayLeavesNothingToPushTo() async throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - name: chat
                request: { path: /chat }
                delay: 2s
                response:
                  websocket:
                    messages: [{ text: welcome }]
            """])
        try await withServer(stubs.url) { server in
            let fd = try #require(connectLoopback(port: server.port))
            let upgrade = "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            _ = Array(upgrade.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // Matched (its hit is counted then), and gone while the answer waits out its delay.
            #expect(try await server.waitForHits("chat", count: 1, timeout: .seconds(5)) == 1)
            close(fd)
            let chat = StubdClient(baseURL: server.baseURL).webSockets("chat")
            // Held for it until the request ends (the delay, or the once-a-second departure sweep), then refused.
            let refused = await eventually(within: 10) {
                do { _ = try await chat.send("anyone?"); return false } catch is StubdError { return true } catch { return false }
            }
            #expect(refused, "a push was still held for the client that left")
            #expect(try await chat.openSockets() == 0)
        }
    }
}

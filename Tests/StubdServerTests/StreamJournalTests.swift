import Foundation
import Stubd
import StubdClient
import StubdProtocol
import StubdTestSupport
import Testing

/// A WebSocket's messages and an event stream's events in the journal (`GET /__stubd/requests`),
/// under the connection's entry (issue 41), through `stubd serve` with Python's `websockets` and curl.
@Suite struct StreamJournalTests {
    static let stubs: [String: String] = [
        "stubd.yml": #"clock: { virtual: "2026-01-01T00:00:00Z" }"# + "\nroutes:\n" + chatRoute() + """
              - name: ticks
                request: { path: /ticks }
                response:
                  events:
                    - { id: "1", data: one }
                    - { event: tick, data: two }
              - request: { path: /plain }
                response: { json: { ok: true } }
            """,
    ]

    static let chatScript = #"""
        import asyncio, json, sys, urllib.request, websockets
        port, count = int(sys.argv[1]), int(sys.argv[2])
        base = f"http://127.0.0.1:{port}/__s/j1"
        def push(text):
            req = urllib.request.Request(base + "/__stubd/websockets/chat/messages", method="POST",
                                         data=json.dumps({"text": text}).encode(), headers={"Content-Type": "application/json"})
            urllib.request.urlopen(req, timeout=5).read()
        async def main():
            async with websockets.connect(f"ws://127.0.0.1:{port}/__s/j1/chat") as ws:
                assert await ws.recv() == "welcome"
                await ws.send("ping"); assert await ws.recv() == "pong"
                await asyncio.to_thread(push, "pushed"); assert await ws.recv() == "pushed"
                await ws.send("x" * 3000)
                await ws.send(bytes(range(256)) * 12)
                for _ in range(count):
                    await ws.send("ping"); assert await ws.recv() == "pong"
            print("ok")
        asyncio.run(main())
        """#

    private func requests(_ base: URL, session: String) throws -> JournalReport {
        let r = try curl(["-s", base.absoluteString + "/__s/\(session)/__stubd/requests"])
        return try JSONDecoder().decode(JournalReport.self, from: Data(r.output.utf8))
    }

    /// Each message both ways, in order, with its direction, its time on the session's (virtual)
    /// clock and its size; a long text is cut to 2 KiB and a binary one shown as base64 of its first
    /// 2 KiB, both marked truncated; a pushed one is listed as sent. An event stream lists its events
    /// as written; a plain request has no messages.
    @Test func aSocketsMessagesAndAStreamsEventsAreInItsJournalEntry() throws {
        try requirePython(modules: "websockets")
        let server = try ServeProcess(serving: Self.stubs)
        defer { withExtendedLifetime(server) {} }
        let r = try run(testPython, ["-c", Self.chatScript, String(server.port), "1"])
        #expect(r.output == "ok\n", "\(r.output)\(r.error)")
        _ = try curl(["-s", "-N", server.baseURL.absoluteString + "/__s/j1/ticks"])
        _ = try curl(["-s", server.baseURL.absoluteString + "/__s/j1/plain"])
        let journal = try requests(server.baseURL, session: "j1")
        let chat = try #require(journal.requests.first { $0.route == "chat" }, "\(journal)")
        let messages = try #require(chat.messages, "\(chat)")
        #expect(messages.map(\.index) == Array(1...8))
        #expect(messages.map(\.direction) == ["sent", "received", "sent", "sent", "received", "received", "received", "sent"])
        #expect(messages.map(\.text) == ["welcome", "ping", "pong", "pushed", String(repeating: "x", count: 2048), nil, "ping", "pong"])
        #expect(messages.map(\.bytes) == [7, 4, 4, 6, 3000, 3072, 4, 4])
        #expect(messages.map { $0.truncated ?? false } == [false, false, false, false, true, true, false, false])
        #expect(messages[5].binary == Data((Array(0...255) as [UInt8]).repeated(12).prefix(2048)).base64EncodedString())
        #expect(messages.allSatisfy { $0.time == "2026-01-01T00:00:00.000Z" }, "times on the virtual clock: \(messages.map(\.time))")
        let ticks = try #require(journal.requests.first { $0.route == "ticks" }, "\(journal)")
        #expect(ticks.messages?.map(\.text) == ["id: 1\ndata: one\n\n", "event: tick\ndata: two\n\n"], "\(ticks)")
        #expect(ticks.messages?.map(\.direction) == ["sent", "sent"])
        #expect(journal.requests.first { $0.path.hasSuffix("/plain") }?.messages == nil)
        // The JSON leaves `messages` out for a plain request.
        let raw = try curl(["-s", server.baseURL.absoluteString + "/__s/j1/__stubd/requests"]).output
        #expect(raw.components(separatedBy: "\"messages\"").count == 3, "\(raw)")
    }

    /// The session keeps as many messages as its journal keeps requests: a chatty socket drops its
    /// own oldest, and the entry lists the newest with their places on the connection.
    @Test func theMessagesKeptAreBoundedByTheJournalsCapacity() async throws {
        try requirePython(modules: "websockets")
        var options = StubServer.Options()
        options.journalCapacity = 5
        try await withServer(try TempStubs(Self.stubs).url, options: options) { server in
            let r = try run(testPython, ["-c", Self.chatScript, String(server.port), "20"])
            #expect(r.output == "ok\n", "\(r.output)\(r.error)")
            let journal = try requests(server.baseURL, session: "j1")
            let chat = try #require(journal.requests.first { $0.route == "chat" }, "\(journal)")
            // 6 before the loop, then 20 pings and 20 pongs: the last 5 of 46.
            #expect(chat.messages?.map(\.index) == Array(42...46), "\(chat)")
            #expect(chat.messages?.map(\.text) == ["pong", "ping", "pong", "ping", "pong"])
        }
    }

    /// The dashboard's event stream (`GET /__stubd/events`, `ChangeFeed`) says the session changed
    /// when the app sends a message and when its socket closes, not only at the next request.
    @Test func theDashboardHearsOfAnAppsMessageAndOfAClose() throws {
        try requirePython(modules: "websockets")
        let server = try ServeProcess(serving: Self.stubs)
        defer { withExtendedLifetime(server) {} }
        let r = try run(testPython, ["-c", #"""
            import asyncio, sys, websockets
            port = int(sys.argv[1])
            async def main():
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET /__stubd/events?session=c1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                await writer.drain()
                got = [b""]
                def changes(): return got[0].count(b'event: change\ndata: ["c1"]')
                async def until(done, seconds):
                    end = asyncio.get_running_loop().time() + seconds
                    while not done():
                        left = end - asyncio.get_running_loop().time()
                        if left <= 0: return False
                        try: chunk = await asyncio.wait_for(reader.read(4096), left)
                        except asyncio.TimeoutError: return False
                        if not chunk: return False
                        got[0] += chunk
                    return True
                assert await until(lambda: b": stubd events" in got[0], 5), got
                ws = await websockets.connect(f"ws://127.0.0.1:{port}/__s/c1/chat")
                assert await ws.recv() == "welcome"
                assert await until(lambda: changes() >= 1, 5), ("no change for the connection", got)
                await until(lambda: False, 0.4)
                n = changes()
                await ws.send("hello")
                assert await until(lambda: changes() > n, 3), ("no change after the app's message", got)
                await until(lambda: False, 0.4)
                n = changes()
                await ws.close()
                assert await until(lambda: changes() > n, 3), ("no change after the close", got)
                print("ok")
            asyncio.run(main())
            """#, String(server.port)])
        #expect(r.output == "ok\n", "\(r.output)\(r.error)")
    }
}

private extension Array {
    func repeated(_ n: Int) -> [Element] { (0..<n).flatMap { _ in self } }
}

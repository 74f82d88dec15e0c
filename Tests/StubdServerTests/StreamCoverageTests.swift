import Foundation
import StubdClient
import StubdProtocol
import StubdTestSupport
import Testing

/// Coverage of streams (issue 41): which of a WebSocket script's replies a client message reached,
/// and whether an event stream sent every event, through `stubd serve` with Python's `websockets` and curl.
@Suite struct StreamCoverageTests {
    static let stubs: [String: String] = [
        "stubd.yml": "routes:\n" + chatRoute(replies: ["{ match: { json: { type: subscribe } }, send: { text: subscribed } }"]) + """
              - name: ticks
                request: { path: /ticks }
                response: { events: [{ data: one }, { data: two }, { data: three }] }
              - name: slow
                request: { path: /slow }
                response: { events: [{ data: first }, { data: later, delay: 1h }] }
            """,
    ]

    /// `ping` twice reaches reply 1; reply 2 (never sent) is listed uncovered with how to reach it.
    /// A stream read to its end covers its events item; one the client left after its first event
    /// does not, and says it got one of two.
    @Test func repliesReachedAndStreamsRunToTheirEndAreCovered() throws {
        try requirePython(modules: "websockets")
        let server = try ServeProcess(serving: Self.stubs)
        defer { withExtendedLifetime(server) {} }
        let r = try run(testPython, ["-c", #"""
            import asyncio, sys, websockets
            async def main(port):
                async with websockets.connect(f"ws://127.0.0.1:{port}/__s/c2/chat") as ws:
                    assert await ws.recv() == "welcome"
                    for _ in range(2):
                        await ws.send("ping"); assert await ws.recv() == "pong"
                    await ws.send("no reply matches this")
                print("ok")
            asyncio.run(main(int(sys.argv[1])))
            """#, String(server.port)])
        #expect(r.output == "ok\n", "\(r.output)\(r.error)")
        #expect(try curl(["-s", "-N", server.baseURL.absoluteString + "/__s/c2/ticks"]).output.contains("data: three"))
        _ = try curl(["-s", "-N", "--max-time", "0.5", server.baseURL.absoluteString + "/__s/c2/slow"])
        // The stream's end is counted when libmicrohttpd closes it, a moment after curl left.
        var report: CoverageReport?
        for _ in 0..<50 {
            let json = try curl(["-s", server.baseURL.absoluteString + "/__stubd/coverage?session=c2"]).output
            report = try JSONDecoder().decode(CoverageReport.self, from: Data(json.utf8))
            if report?.routes.first(where: { $0.route == "slow" })?.items.first(where: { $0.kind == .events })?.eventsSent == 1 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let routes = try #require(report).routes
        let chat = try #require(routes.first { $0.route == "chat" })
        let replies = chat.items.filter { $0.kind == .reply }
        #expect(replies.map(\.id) == ["reply 1", "reply 2"])
        #expect(replies.map(\.hits) == [2, 0])
        #expect(replies.map(\.title) == [#"WebSocket reply 1 (text "ping")"#, #"WebSocket reply 2 (json {"type":"subscribe"})"#])
        #expect(replies[1].hint.contains(#"send a message matching json {"type":"subscribe"} on /chat"#), "\(replies[1].hint)")
        let ticks = try #require(routes.first { $0.route == "ticks" }?.items.first { $0.kind == .events })
        #expect(ticks.hits == 1 && ticks.events == 3 && ticks.eventsSent == 3, "\(ticks)")
        let slow = try #require(routes.first { $0.route == "slow" }?.items.first { $0.kind == .events })
        #expect(slow.hits == 0 && slow.events == 2 && slow.eventsSent == 1, "\(slow)")
        // The command's table lists the reply no message reached, as uncovered.
        let table = try run(stubdBinary.path, ["coverage", "--url", server.baseURL.absoluteString, "--session", "c2"])
        #expect(table.output.contains(#"-  chat"#) && table.output.contains(#"WebSocket reply 2 (json {"type":"subscribe"})"#), "\(table.output)")
        #expect(table.output.contains("every event sent (3 events, the stream ran to its end)"), "\(table.output)")
    }
}

import Foundation
import StubdProtocol
import StubdTestSupport
import Testing

/// The sessions' storage budget on the wire (issue 57): one client opening WebSockets under many
/// session ids of its choosing, each sending large messages, took 537 MB in 4 s. Python's
/// `websockets` is the client; `stubd serve --session-storage` the budget.
@Suite struct SessionStorageServerTests {
    /// 300 sessions each send five 60 kB messages (18 MB in all) to a server whose sessions may keep
    /// 4 MB: what the sessions still list stays within it, and the newest session keeps all of its own.
    @Test func manySessionsFillingWebSocketsStayWithinTheBudget() throws {
        try requirePython(modules: "websockets")
        let folder = try TempStubs(["stubd.yml": "routes:\n" + chatRoute()])
        let budget = 4_000_000
        let server = try ServeProcess(["--stubs", folder.url.path, "--session-storage", String(budget)])
        defer { withExtendedLifetime(server) {} }
        let r = try run(testPython, ["-c", #"""
            import asyncio, json, sys, urllib.request, websockets
            port, budget, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
            def messages(session):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/__s/{session}/__stubd/websockets/chat/messages", timeout=10) as r:
                    return json.loads(r.read())["messages"]
            def rss():
                for line in open(f"/proc/{pid}/status"):
                    if line.startswith("VmRSS:"): return int(line.split()[1]) // 1024
            async def main():
                big = "m" * 60_000
                for n in range(300):
                    async with websockets.connect(f"ws://127.0.0.1:{port}/__s/s{n}/chat", max_size=None) as ws:
                        assert await ws.recv() == "welcome"
                        for _ in range(5): await ws.send(big)
                        await ws.send("ping"); assert await ws.recv() == "pong"   # the server has read all five
                kept = 0
                for n in range(300):
                    kept += sum(len(m.get("text", "")) for m in messages(f"s{n}"))
                assert kept <= budget, f"the sessions keep {kept} bytes of what the app sent, past the budget of {budget}"
                newest = messages("s299")
                assert len(newest) == 6 and len(newest[0]["text"]) == 60_000, [len(m.get("text", "")) for m in newest]
                print(f"ok kept={kept} rss_mb={rss()}", file=sys.stderr)
                print("ok")
            asyncio.run(main())
            """#, String(server.port), String(budget), String(server.process.processIdentifier)])
        #expect(r.output == "ok\n", "\(r.output)\(r.error)")
        print("SessionStorageServerTests: \(r.error)")
    }
}

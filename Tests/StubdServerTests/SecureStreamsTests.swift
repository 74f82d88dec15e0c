import Foundation
import Stubd
import StubdTestSupport
import Testing

/// Streams over HTTPS: a WebSocket (`wss://`) through libmicrohttpd's TLS upgrade, read by Python's
/// `websockets` trusting the local CA, and server-sent events read by curl with `--cacert`.
@Suite struct SecureStreamsTests {
    static let stubs: [String: String] = [
        "stubd.yml": "routes:\n" + chatRoute(
            protocols: ["chat.v1"], messages: ["{ text: tick, after: 50ms }"],
            replies: [#"{ match: { regex: "^big " }, send: { text: "got it" } }"#, "{ match: { text: bye }, close: { code: 4000, reason: see you } }"]
        ) + """
              - name: ticks
                request: { path: /ticks }
                response:
                  events:
                    - { id: "1", data: one }
                    - { id: "2", event: tick, data: two, delay: 50ms }
            """,
    ]

    /// Serves the stubs over HTTPS and runs `script`, Python with `websockets` given the port and the
    /// local CA's file; `check` sees what it printed while the server still serves.
    private func runOverTLS(_ script: String,
                            _ check: (_ r: (status: Int32, output: String, error: String), _ port: UInt16, _ caFile: String) throws -> Void) async throws {
        try requirePython(modules: "websockets")
        let folder = try TempStubs(Self.stubs)
        let ca = HTTPSTests.caDirectory()
        try await withServer(folder.url, options: HTTPSTests.options(ca: ca)) { server in
            let caFile = ca.appendingPathComponent("ca.pem").path
            try check(try run(testPython, ["-c", script, String(server.port), caFile]), server.port, caFile)
        }
    }

    @Test func wssCarriesAWholeConversationFromOpenToClose() async throws {
        try await runOverTLS(#"""
            import asyncio, ssl, sys, websockets
            from websockets.exceptions import ConnectionClosed
            port, cafile = int(sys.argv[1]), sys.argv[2]
            async def main():
                context = ssl.create_default_context(cafile=cafile)
                async with websockets.connect(f"wss://localhost:{port}/chat", ssl=context, subprotocols=["chat.v1"]) as ws:
                    assert ws.subprotocol == "chat.v1", ws.subprotocol
                    assert await asyncio.wait_for(ws.recv(), 3) == "welcome"
                    assert await asyncio.wait_for(ws.recv(), 3) == "tick"
                    await ws.send("ping"); assert await asyncio.wait_for(ws.recv(), 3) == "pong"
                    # Larger than a TLS record (16 KB) both ways: the pump between TLS and the socket takes it in pieces.
                    await ws.send("big " + "x" * 200_000); assert await asyncio.wait_for(ws.recv(), 3) == "got it"
                    pong = await ws.ping(b"p"); await asyncio.wait_for(pong, 3)
                    await ws.send("bye")
                    try:
                        await asyncio.wait_for(ws.recv(), 3); raise AssertionError("no close")
                    except ConnectionClosed as e:
                        assert e.rcvd.code == 4000 and e.rcvd.reason == "see you", e
                try:
                    await websockets.connect(f"wss://localhost:{port}/chat", ssl=ssl.create_default_context())
                    print("trusted without the CA")
                except ssl.SSLCertVerificationError:
                    pass
                print("ok")
            asyncio.run(main())
            """#) { r, port, caFile in
            #expect(r.output == "ok\n", "\(r.output) \(r.error)")
            // Still serving over TLS after the socket closed.
            let health = try curl(["--cacert", caFile, "https://localhost:\(port)/__stubd/health"])
            #expect(health.output.contains(#""status":"ok""#), "\(health)")
        }
    }

    @Test func curlReadsServerSentEventsOverHTTPS() async throws {
        let folder = try TempStubs(Self.stubs)
        let ca = HTTPSTests.caDirectory()
        try await withServer(folder.url, options: HTTPSTests.options(ca: ca)) { server in
            let r = try curl(["-N", "-i", "--cacert", ca.appendingPathComponent("ca.pem").path, "https://localhost:\(server.port)/ticks"])
            #expect(r.status == 0, "\(r)")
            let parts = r.output.components(separatedBy: "\r\n\r\n")
            #expect(parts[0].lowercased().contains("content-type: text/event-stream"), "\(r.output)")
            #expect(parts.dropFirst().joined(separator: "\r\n\r\n") == "id: 1\ndata: one\n\nevent: tick\nid: 2\ndata: two\n\n", "\(r.output)")
        }
    }

    /// libmicrohttpd 0.9.75 (Debian 12's) relays an upgraded TLS socket through 4-byte buffers: a
    /// quarter megabyte takes about half a second where plain `ws://` takes milliseconds. Fixed in
    /// libmicrohttpd 1.0.0; known here until the library is, and this passes where it is newer.
    @Test func wssRelaysAQuarterMegabyteWithinATenthOfASecond() async throws {
        try await runOverTLS(#"""
            import asyncio, ssl, sys, time, websockets
            port, cafile = int(sys.argv[1]), sys.argv[2]
            async def main():
                context = ssl.create_default_context(cafile=cafile)
                async with websockets.connect(f"wss://localhost:{port}/chat", ssl=context) as ws:
                    assert await asyncio.wait_for(ws.recv(), 3) == "welcome"
                    assert await asyncio.wait_for(ws.recv(), 3) == "tick"
                    started = time.monotonic()
                    await ws.send("big " + "x" * 250_000); assert await asyncio.wait_for(ws.recv(), 10) == "got it"
                    print(round(time.monotonic() - started, 3))
            asyncio.run(main())
            """#) { r, _, _ in
            let seconds = try #require(Double(r.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(r.output) \(r.error)")
            #if os(Linux)
            withKnownIssue("libmicrohttpd 0.9.75 relays upgraded TLS through 4-byte buffers (fixed in 1.0.0)", isIntermittent: true) {
                #expect(seconds < 0.1, "250 KB over wss took \(seconds) s")
            }
            #else
            #expect(seconds < 0.1, "250 KB over wss took \(seconds) s")
            #endif
        }
    }
}

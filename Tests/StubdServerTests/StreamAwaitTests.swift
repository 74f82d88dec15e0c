import Foundation
import StubdClient
import StubdProtocol
import StubdTestSupport
import StubdTesting
import Testing

/// Awaiting what crosses a stream, on the server's side (`GET /__stubd/streams/wait`): the events or
/// messages the app was sent (`server.stream(…)`, `confirmAppReceived`) and the messages it sent on a
/// WebSocket (`webSockets(…).waitForMessage`, `confirmAppSent`), with failures that say what there was.
/// Through `stubd serve`, with curl and Python's `websockets` as the app, on the virtual clock.
@Suite struct StreamAwaitTests {
    static let stubs: [String: String] = [
        "stubd.yml": """
            clock: { virtual: "2026-01-01T00:00:00Z" }
            routes:
              - name: scores
                request: { path: /scores }
                response:
                  events:
                    - { event: score, data: '{"home":1}' }
                    - { event: score, data: '{"home":2}', delay: 60s }
                    - { event: score, data: '{"home":3}', delay: 60s }
              - name: chat
                request: { path: /chat }
                response:
                  websocket:
                    messages: [{ text: welcome }, { text: later, after: 1h }]
            """,
    ]

    /// A child the test talks to through the server, killed when the test ends.
    final class App {
        let process = Process()
        let output = Pipe()
        init(_ executable: String, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = output
            process.standardError = output
            try process.run()
        }
        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The wait returns when the server has sent the events, as soon as the clock moves them out (the
    /// server holds it: no sleep, no poll); short of the count, the failure names the route, the time,
    /// how many were sent and what.
    @Test func theAppReceivedNEventsIsAwaitedOnTheServerAndAShortfallSaysWhatWasSent() async throws {
        let folder = try TempStubs(Self.stubs)
        let server = try ServeProcess(["--stubs", folder.url.path])
        defer { withExtendedLifetime(server) {} }
        let stubd = StubdClient(baseURL: server.baseURL).sessionClient("t1")
        let reader = try App("/usr/bin/curl", ["-sN", "--max-time", "20", server.baseURL.absoluteString + "/__s/t1/scores"])
        defer { withExtendedLifetime(reader) {} }
        let scores = stubd.stream("scores")
        #expect(try await scores.waitForSent(count: 1, timeout: .seconds(5)).count == 1)
        let short = try await scores.sentMismatch(count: 3, within: .milliseconds(200))
        #expect(short == #"Expected 3 events on GET /scores within 0.2 s, but 1 was sent (1 stream open): event: score data: {"home":1}"#)
        #expect(try await StubdClient(baseURL: server.baseURL).stream("GET /scores").sentMismatch(count: 1, within: .zero)
                == "Expected 1 event on GET /scores within 0 s, but none was sent (no streams open)", "another session's stream")

        let started = ContinuousClock.now
        async let three = scores.waitForSent(count: 3, timeout: .seconds(10))
        try await stubd.advanceClock(by: .seconds(120))
        #expect(try await three.count == 3)
        #expect(ContinuousClock.now - started < .seconds(5), "held until the events went, not until the timeout")
        await confirmAppReceived(stubd, "scores", count: 3)

        await #expect(throws: StubdError.self) { _ = try await stubd.stream("nope").waitForSent(count: 1, timeout: .zero) }
    }

    /// A message the app sent before the wait, or while it waits, is found by text, containment,
    /// a JSON member or a predicate; one it never sends fails listing what it did send.
    @Test func theAppSentAMatchingMessageIsAwaitedAndAMissSaysWhatItSent() async throws {
        try requirePython(modules: "websockets")
        let folder = try TempStubs(Self.stubs)
        let server = try ServeProcess(["--stubs", folder.url.path])
        defer { withExtendedLifetime(server) {} }
        let app = try App(testPython, ["-c", #"""
            import asyncio, sys, websockets
            async def main(port):
                async with websockets.connect(f"ws://127.0.0.1:{port}/__s/t2/chat") as ws:
                    assert await ws.recv() == "welcome"
                    await ws.send("hello")
                    assert await ws.recv() == "go"
                    await ws.send('{"type": "subscribe", "topic": {"id": 7}}')
                    await ws.send(b"\x01\x02")
                    await asyncio.sleep(10)
            asyncio.run(main(int(sys.argv[1])))
            """#, String(server.port)])
        defer { withExtendedLifetime(app) {} }
        let stubd = StubdClient(baseURL: server.baseURL).sessionClient("t2")
        let chat = stubd.webSockets("chat")
        let hello = await confirmAppSent(chat, .text("hello"), within: .seconds(5))
        #expect(hello?.index == 1)
        #expect(try await stubd.stream("chat").waitForSent(count: 1, timeout: .seconds(2)).count == 1)
        // Sent only after this push: the wait holds until it comes.
        #expect(try await chat.send("go") == 1)
        let subscribe = try await chat.waitForMessage(.json("type", equals: "subscribe"), timeout: .seconds(5))
        #expect(subscribe?.index == 2)
        #expect(try await chat.waitForMessage(.json("topic.id", equals: "7"), timeout: .seconds(2))?.index == 2)
        #expect(try await chat.waitForMessage(.containing("subscr"), timeout: .seconds(2))?.index == 2)
        #expect(try await chat.waitForMessage(.matching("two bytes") { $0.data?.count == 2 }, timeout: .seconds(5))?.index == 3)

        let started = ContinuousClock.now
        let miss = try await chat.messageMismatch(.text("bye"), within: .milliseconds(300))
        #expect(ContinuousClock.now - started >= .milliseconds(250))
        #expect(miss == #"Expected the app to send text "bye" on GET /chat within 0.3 s, but it sent 3 (1 socket open): "hello", "{\"type\": \"subscribe\", \"topic\": {\"id\": 7}}", binary, 2 bytes"#)
        #expect(try await StubdClient(baseURL: server.baseURL).webSockets("chat").messageMismatch(.containing("hello"), within: .zero)
                == #"Expected the app to send text containing "hello" on GET /chat within 0 s, but it sent none (no sockets open)"#)
    }
}

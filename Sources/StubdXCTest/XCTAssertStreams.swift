public import StubdClient
public import StubdProtocol
import XCTest

/// Asserts that the server sends `count` events or messages on the streaming route `route` (server-sent
/// events or a WebSocket) in this session within `timeout`: "the app received N events". The server
/// holds a long-poll; nothing sleeps. The failure says what was sent:
/// `Expected 3 events on GET /scores within 2 s, but 1 was sent (1 stream open): event: score data: {"home":1}`.
public func XCTAssertAppReceived(_ server: any StubControl, _ route: String, count: Int, within timeout: Duration = .seconds(2),
                                 file: StaticString = #filePath, line: UInt = #line) async {
    await failOnMismatch("XCTAssertAppReceived(\(route))", file, line) {
        try await server.stream(route).sentMismatch(count: count, within: timeout)
    }
}

/// Asserts that the app sends a message `match` takes on the WebSocket route `webSocket` within
/// `timeout` (one it sent before counts), and returns it. The failure says what it sent:
/// `Expected the app to send text containing "hello" on GET /chat within 2 s, but it sent 2 (1 socket open): "hi", "ping"`.
@discardableResult
public func XCTAssertAppSent(_ webSocket: StubWebSocket, _ match: WebSocketMessageMatch, within timeout: Duration = .seconds(2),
                             file: StaticString = #filePath, line: UInt = #line) async -> WebSocketMessagesReport.Message? {
    do {
        if let message = try await webSocket.waitForMessage(match, timeout: timeout) { return message }
        XCTFail(try await webSocket.missingMessage(match, waited: timeout), file: file, line: line)
    } catch {
        XCTFail("XCTAssertAppSent(\(webSocket.name)): \(error)", file: file, line: line)
    }
    return nil
}

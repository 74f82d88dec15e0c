public import StubdClient
public import StubdProtocol
public import Testing

/// Waits until the server has sent `count` events or messages on the streaming route `route` (server-sent
/// events or a WebSocket) in this session: "the app received N events". The server holds a long-poll;
/// nothing sleeps. After `within` without them, records an issue with what was sent:
/// `Expected 3 events on GET /scores within 2 s, but 1 was sent (1 stream open): event: score data: {"home":1}`.
public func confirmAppReceived(_ server: any StubControl, _ route: String, count: Int, within timeout: Duration = .seconds(2),
                               sourceLocation: SourceLocation = #_sourceLocation) async {
    await recordMismatch("confirmAppReceived(\(route))", sourceLocation) {
        try await server.stream(route).sentMismatch(count: count, within: timeout)
    }
}

/// Waits until the app has sent a message `match` takes on the WebSocket route `webSocket` (those it sent
/// before included) and returns it. After `within` without one, records an issue with what it sent:
/// `Expected the app to send text containing "hello" on GET /chat within 2 s, but it sent 2 (1 socket open): "hi", "ping"`.
@discardableResult
public func confirmAppSent(_ webSocket: StubWebSocket, _ match: WebSocketMessageMatch, within timeout: Duration = .seconds(2),
                           sourceLocation: SourceLocation = #_sourceLocation) async -> WebSocketMessagesReport.Message? {
    do {
        if let message = try await webSocket.waitForMessage(match, timeout: timeout) { return message }
        Issue.record(Comment(rawValue: try await webSocket.missingMessage(match, waited: timeout)), sourceLocation: sourceLocation)
    } catch {
        Issue.record(error, Comment(rawValue: "confirmAppSent(\(webSocket.name))"), sourceLocation: sourceLocation)
    }
    return nil
}

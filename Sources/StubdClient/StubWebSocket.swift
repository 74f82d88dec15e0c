public import Foundation
public import StubdProtocol

/// One WebSocket route of the server as a session sees it: push messages to the app's open sockets,
/// and read what the app sent. `server.webSockets("chat")`.
public struct StubWebSocket: Sendable {
    /// What names the route: its name (`chat`), its signature (`GET /chat`) or a path it answers, as hit counts take.
    public let name: String
    let client: StubdClient

    /// Sends `text` to every socket of the route open in the session; returns how many got it. None
    /// open throws ``StubdError/rejected(call:status:detail:)`` with the 409 saying so.
    @discardableResult
    public func send(_ text: String) async throws -> Int {
        try await client.pushWebSocketMessage(name, WebSocketPush(text: text)).sockets
    }

    /// Sends `data` as a binary message to every open socket of the route; returns how many got it.
    @discardableResult
    public func send(data: Data) async throws -> Int {
        try await client.pushWebSocketMessage(name, WebSocketPush(binary: data.base64EncodedString())).sockets
    }

    /// Sends `value` encoded as JSON (keys sorted) in a text message; returns how many sockets got it.
    @discardableResult
    public func send<Value: Encodable>(json value: Value) async throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try await send(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// What the app sent on the route's sockets in this session, oldest first (the newest the server
    /// keeps, up to its journal's capacity), each numbered from 1 and timed on the session's clock.
    public func received(after index: Int = 0) async throws -> [WebSocketMessagesReport.Message] {
        try await client.webSocketMessages(name, after: index).messages
    }

    /// The route's sockets open in this session now.
    public func openSockets() async throws -> Int {
        let report = try await client.webSockets()
        guard let route = report.webSockets.first(where: { $0.route == name || $0.signature == name }) else {
            // A path or another spelling: the messages call resolves it as the server does.
            let resolved = try await client.webSocketMessages(name, after: Int.max).route
            return report.webSockets.first { $0.route == resolved }?.open ?? 0
        }
        return route.open
    }
}

extension StubControl {
    /// The WebSocket route `name` in this session: `try await server.webSockets("chat").send("hello")`.
    public func webSockets(_ name: String) -> StubWebSocket {
        StubWebSocket(name: name, client: adminClient)
    }
}

extension WebSocketMessagesReport.Message {
    /// A binary message's bytes (nil for a text message).
    public var data: Data? { binary.flatMap { Data(base64Encoded: $0) } }
}

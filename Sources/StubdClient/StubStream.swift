import Foundation
public import StubdProtocol

/// One streaming route of the server (server-sent events or a WebSocket) as a session sees it:
/// wait, on the server's side, until it has sent the app N events or messages. `server.stream("GET /scores")`.
public struct StubStream: Sendable {
    /// What names the route: its name, its signature (`GET /scores`) or a path it answers, as hit counts take.
    public let route: String
    let client: StubdClient

    /// Returns once the server has sent `count` events or messages on the route in this session (the
    /// server holds the call: nothing sleeps or polls), or when `timeout` passes; `StreamWait.count`
    /// says how many it had then.
    public func waitForSent(count: Int, timeout: Duration) async throws -> StreamWait {
        try await client.waitForStream(route, of: "sent", count: count, timeout: timeout)
    }

    /// Nil once the server has sent `count` events or messages on the route within `timeout`; otherwise
    /// the failure text an assertion records, with what was sent:
    /// `Expected 3 events on GET /scores within 2 s, but 1 was sent (1 stream open): event: score data: {"home":1}`.
    public func sentMismatch(count: Int, within timeout: Duration) async throws -> String? {
        let wait = try await waitForSent(count: count, timeout: timeout)
        guard wait.count < count else { return nil }
        let noun = wait.kind == "websocket" ? "message" : "event"
        let opened = wait.kind == "websocket" ? "socket" : "stream"
        let sent = wait.count == 0 ? "none was sent" : "\(wait.count) \(wait.count == 1 ? "was" : "were") sent"
        let open = "\(wait.open == 0 ? "no" : String(wait.open)) \(opened)\(wait.open == 1 ? "" : "s") open"
        let recent = wait.recent.isEmpty ? "" : (wait.count > wait.recent.count ? ": … " : ": ") + wait.recent.joined(separator: "; ")
        return "Expected \(count) \(noun)\(count == 1 ? "" : "s") on \(wait.signature) within \(StubStream.seconds(timeout)), but \(sent) (\(open))\(recent)"
    }

    /// `2 s`, `0.5 s`.
    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return (seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)) + " s"
    }
}

extension StubControl {
    /// The streaming route `route` (events or a WebSocket) in this session: `try await server.stream("GET /scores").waitForSent(count: 3, timeout: .seconds(2))`.
    public func stream(_ route: String) -> StubStream {
        StubStream(route: route, client: adminClient)
    }
}

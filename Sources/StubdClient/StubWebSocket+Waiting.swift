import Foundation
public import StubdProtocol

extension StubWebSocket {
    /// The first message the app sent on the route in this session (those sent before the call
    /// included) that `match` takes; nil when none came within `timeout`. The server holds each
    /// wait for the next message (`GET /__stubd/streams/wait?of=received`): nothing sleeps or polls.
    public func waitForMessage(_ match: WebSocketMessageMatch, timeout: Duration) async throws -> WebSocketMessagesReport.Message? {
        let deadline = ContinuousClock.now + timeout
        var seen = 0
        while true {
            for message in try await received(after: seen) {
                if match.matches(message) { return message }
                seen = max(seen, message.index)
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            // Messages dropped from the kept ones still count: wait for one past those seen.
            let wait = try await client.waitForStream(name, of: "received", count: seen + 1, timeout: left)
            if wait.count <= seen { return nil }
        }
    }

    /// Nil once the app has sent a message `match` takes within `timeout`; otherwise the failure text
    /// an assertion records, with what it sent:
    /// `Expected the app to send text containing "hello" on GET /chat within 2 s, but it sent 2 (1 socket open): "hi", "ping"`.
    public func messageMismatch(_ match: WebSocketMessageMatch, within timeout: Duration) async throws -> String? {
        guard try await waitForMessage(match, timeout: timeout) == nil else { return nil }
        return try await missingMessage(match, waited: timeout)
    }

    /// The failure text for a message `match` took none of after `timeout`: what the app sent, and
    /// how many sockets are open.
    public func missingMessage(_ match: WebSocketMessageMatch, waited timeout: Duration) async throws -> String {
        let all = try await client.webSocketMessages(name, after: 0)
        let listing = try await client.webSockets().webSockets.first { $0.route == all.route }
        let open = listing?.open ?? 0
        let shown = all.messages.suffix(5).map { message in
            message.text.map(WebSocketMessageMatch.quoted) ?? "binary, \(message.data?.count ?? 0) bytes"
        }
        let sent = all.total == 0 ? "it sent none" : "it sent \(all.total)"
        return "Expected the app to send \(match) on \(listing?.signature ?? name) within \(StubStream.seconds(timeout)), but \(sent) "
            + "(\(open == 0 ? "no" : String(open)) socket\(open == 1 ? "" : "s") open)"
            + (shown.isEmpty ? "" : (all.total > shown.count ? ": … " : ": ") + shown.joined(separator: ", "))
    }
}

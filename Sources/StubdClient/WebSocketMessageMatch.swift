import Foundation
public import StubdProtocol

/// What a message the app sent on a WebSocket should be, for `StubWebSocket.waitForMessage(_:timeout:)`
/// and the assertions built on it; its description is what a failure quotes.
public struct WebSocketMessageMatch: Sendable, CustomStringConvertible {
    /// `text "ping"`, `text containing "hello"`, `JSON with type = "subscribe"`.
    public let description: String
    let test: @Sendable (WebSocketMessagesReport.Message) -> Bool

    /// A text message equal to `text`.
    public static func text(_ text: String) -> WebSocketMessageMatch {
        WebSocketMessageMatch(description: "text \(quoted(text))") { $0.text == text }
    }

    /// A text message with `part` in it.
    public static func containing(_ part: String) -> WebSocketMessageMatch {
        WebSocketMessageMatch(description: "text containing \(quoted(part))") { $0.text?.contains(part) == true }
    }

    /// A text message that is a JSON object whose member at `path` (`type`, or `data.id` for nested
    /// objects) is `value`: a string equal to it, or a number or boolean written so.
    public static func json(_ path: String, equals value: String) -> WebSocketMessageMatch {
        WebSocketMessageMatch(description: "JSON with \(path) = \(quoted(value))") { message in
            guard let text = message.text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return false }
            var found: Any? = object
            for key in path.split(separator: ".") { found = (found as? [String: Any])?[String(key)] }
            switch found {
            case let string as String: return string == value
            case let number as NSNumber:
                if value == "true" || value == "false" { return (number as? Bool).map { String($0) } == value }
                return number.stringValue == value
            default: return false
            }
        }
    }

    /// A message `predicate` takes; `description` names it in a failure (`a message with 3 items`).
    public static func matching(_ description: String, _ predicate: @escaping @Sendable (WebSocketMessagesReport.Message) -> Bool) -> WebSocketMessageMatch {
        WebSocketMessageMatch(description: description, test: predicate)
    }

    /// Whether `message` is one this match takes.
    public func matches(_ message: WebSocketMessagesReport.Message) -> Bool { test(message) }

    static func quoted(_ text: String) -> String {
        let shown = text.count > 80 ? String(text.prefix(79)) + "…" : text
        return "\"" + shown.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

import Foundation

/// Which client messages a reply answers: text equal to a string, text a regular expression finds a
/// match in, a JSON message holding the given members (as `equalToJson` with extra members
/// ignored), or any message at all.
package enum WebSocketMatch: Sendable {
    case text(String)
    case regex(WebSocketPattern)
    case json(JSONValue)
    case any

    package func matches(_ message: WebSocketMessage) -> Bool {
        if case .any = self {
            switch message {
            case .text, .binary: return true
            default: return false
            }
        }
        guard case .text(let text) = message else { return false }
        switch self {
        case .text(let wanted): return text == wanted
        case .regex(let pattern): return pattern.finds(in: text)
        case .json(let wanted):
            guard let value = try? JSONParser.parse(text) else { return false }
            return value.contains(wanted)
        case .any: return true
        }
    }
}

/// A compiled regular expression, shared by every connection (NSRegularExpression is immutable and
/// thread-safe, but not marked Sendable).
extension WebSocketMatch {
    /// `text "ping"`, `regex ^echo `, `json {"type":"subscribe"}`, `any message`: how coverage names a reply.
    package var summary: String {
        switch self {
        case .text(let text): "text \"\(text)\""
        case .regex(let pattern): "regex \(pattern.source)"
        case .json(let value): "json \(value.serialized)"
        case .any: "any message"
        }
    }
}

package struct WebSocketPattern: @unchecked Sendable {
    package let source: String
    private let expression: NSRegularExpression

    package init(_ source: String) throws {
        self.source = source
        expression = try NSRegularExpression(pattern: source)
    }

    func finds(in text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

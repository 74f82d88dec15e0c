import Foundation
package import StubdEngine

/// A WebSocket conversation as `stubd drift` compares it: a JSON document of what the API sent, so
/// the comparison of JSON bodies says what changed in its shape, as `DriftEventStream` does for an
/// event stream. `open` is what came before the app spoke, `replies/N` what answered the app's N-th
/// message (in the script's order), each message read as JSON when it is JSON; `close` holds the
/// API's close under its code, so another code is a key added and one gone (shape drift). How many
/// messages came is compared as an array's length (volatile or value drift, not shape).
package enum DriftWebSocket {
    /// The app's messages a replay sends: each reply's `match: { text: … }`, in order (a reply
    /// matched otherwise has no one message to send, and is left out of both sides).
    package static func appMessages(of script: WebSocketScript) -> [String] {
        script.replies.compactMap { if case .text(let text) = $0.match { text } else { nil } }
    }

    /// The conversation the folder's script stands for.
    package static func json(of script: WebSocketScript) -> JSONValue {
        let replies = script.replies.filter { if case .text = $0.match { true } else { false } }
        let close = script.close ?? replies.lazy.compactMap(\.close).first
        return json(open: script.messages.map(\.payload), replies: replies.map { $0.send.map(\.payload) },
                    close: close.map { ($0.code, $0.reason) })
    }

    /// A conversation: the API's messages on the open, after each of the app's, and its close (nil
    /// when the app closed, or nobody did).
    package static func json(open: [WebSocketPayload], replies: [[WebSocketPayload]], close: (code: UInt16, reason: String)?) -> JSONValue {
        func message(_ payload: WebSocketPayload) -> JSONValue {
            switch payload {
            case .text(let text): (try? JSONParser.parse(Data(text.utf8))) ?? .string(text)
            case .binary(let bytes): .object(["binary": .string(Data(bytes).base64EncodedString())])
            }
        }
        var document: [String: JSONValue] = ["open": .array(open.map(message))]
        var byIndex: [String: JSONValue] = [:]
        for (i, sent) in replies.enumerated() { byIndex[String(i + 1)] = .array(sent.map(message)) }
        if !byIndex.isEmpty { document["replies"] = .object(byIndex) }
        if let close { document["close"] = .object([String(close.code): .string(close.reason)]) }
        return .object(document)
    }
}

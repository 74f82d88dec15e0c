package import Foundation
import StubdProtocol
package import StubdEngine

/// A recorded WebSocket conversation made into the script a stub replays (a `.ws` file: the
/// mapping `websocket:` takes). What the API sent before the app's first message is the open's
/// timeline (`messages:`, each `after` the open); what it sent after a message of the app's, until
/// the app's next, is the reply to that message (`replies:`, matched by the message's text, each
/// `after` it); a close the API sent ends the reply it followed, or the timeline. A close the app
/// sent is not written: a stub echoes it. Text is written as sent (not re-serialized JSON), so a
/// replay is the same bytes.
package enum RecordedWebSocket {
    /// The `.ws` file. `masker` takes secrets out of every message; an app's message that held one is
    /// matched without it (its other JSON members, or any message), since a replay's app sends the
    /// real value, not the placeholder.
    package static func wsFile(_ transcript: WebSocketTranscript, masker: SecretMasker) -> Data {
        var timeline: [WebSocketTranscript.Message] = []
        var replies: [(match: String, at: Duration, send: [WebSocketTranscript.Message], close: WebSocketTranscript.Close?)] = []
        var matched = Set<String>()
        // The app's message the API's messages answer, until the next; nil before the first.
        var current: Int?
        for message in transcript.messages {
            if message.fromClient {
                let match = self.match(message.payload, masker: masker)
                // The first answer to a message is the one a stub gives (replies are tried in order).
                if matched.insert(match).inserted {
                    replies.append((match, message.at, [], nil))
                    current = replies.count - 1
                } else {
                    current = nil
                }
            } else if let current {
                replies[current].send.append(message)
            } else if replies.isEmpty {
                timeline.append(message)
            }
        }
        var topClose: WebSocketTranscript.Close?
        if let close = transcript.close, !close.fromClient {
            if let current { replies[current].close = close } else if replies.isEmpty { topClose = close }
        }
        var lines = ["# Recorded by stubd record: what the API sent on the open, and its answers to what the app sent."]
        if transcript.unrecorded > 0 { lines.append("# " + stoppedNote(transcript) + ".") }
        if let subprotocol = transcript.subprotocol { lines.append("protocols: [\(quoted(subprotocol))]") }
        if !timeline.isEmpty {
            lines.append("messages:")
            for m in timeline { lines.append("  - " + outgoing(m.payload, after: m.at, masker: masker)) }
        }
        let answering = replies.filter { !$0.send.isEmpty || $0.close != nil }
        // `any` takes every message: after the replies that match by text.
        let ordered = answering.filter { $0.match != "any" } + answering.filter { $0.match == "any" }
        if !ordered.isEmpty {
            lines.append("replies:")
            for reply in ordered {
                lines.append("  - match: \(reply.match)")
                if !reply.send.isEmpty {
                    lines.append("    send:")
                    for m in reply.send { lines.append("      - " + outgoing(m.payload, after: m.at - reply.at, masker: masker)) }
                }
                if let close = reply.close { lines.append("    close: " + closing(close, after: close.at - reply.at, masker: masker)) }
            }
        }
        if let topClose { lines.append("close: " + closing(topClose, after: topClose.at, masker: masker)) }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Says where a recording stopped, for the `.ws` file and the log line.
    package static func stoppedNote(_ transcript: WebSocketTranscript) -> String {
        "recording stopped after \(transcript.messages.count) message(s) at --max-body (\(transcript.maxBytes) bytes, "
            + "each message counted with \(WebSocketTranscript.messageOverheadBytes) more): "
            + "\(transcript.unrecorded) later message(s) were relayed, not recorded"
    }

    /// `{ text: "…" }` for a message as it was sent; with a secret in it, what else identifies it.
    static func match(_ payload: WebSocketPayload, masker: SecretMasker) -> String {
        guard case .text(let text) = payload else { return "any" }
        guard masker.finds(in: text) else { return "{ text: \(quoted(text)) }" }
        // `{"type": "auth", "token": "…"}` → `{ json: { type: auth } }`: the members free of secrets.
        if case .object(let members)? = try? JSONParser.parse(Data(text.utf8)) {
            let kept = members.filter { !masker.finds(in: JSONValue.object([$0.key: $0.value]).serialized) }
            if !kept.isEmpty { return "{ json: \(JSONValue.object(kept).serialized) }" }
        }
        return "any"
    }

    static func outgoing(_ payload: WebSocketPayload, after: Duration, masker: SecretMasker) -> String {
        var parts: [String]
        switch payload {
        case .text(let text): parts = ["text: \(quoted(masker.mask(text)))"]
        case .binary(let bytes): parts = ["binary: \(Data(bytes).base64EncodedString())"]
        }
        let ms = milliseconds(after)
        if ms > 0 { parts.append("after: \(ms)ms") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    static func closing(_ close: WebSocketTranscript.Close, after: Duration, masker: SecretMasker) -> String {
        // A close without a code is a normal one to the app (1005 is never sent in a frame).
        var parts = ["code: \(close.code.map { WebSocketMessageAssembler.isSendable($0) ? $0 : 1000 } ?? 1000)"]
        if !close.reason.isEmpty { parts.append("reason: \(quoted(masker.mask(close.reason)))") }
        let ms = milliseconds(after)
        if ms > 0 { parts.append("after: \(ms)ms") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    static func milliseconds(_ d: Duration) -> Int { max(0, Int((d / .milliseconds(1)).rounded())) }

    /// A YAML scalar that reads back as exactly this string (JSON's quoting is valid YAML).
    static func quoted(_ text: String) -> String {
        var out = ""
        JSONValue.writeString(text, to: &out)
        return out
    }
}

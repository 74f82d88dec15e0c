import Foundation
import StubdProtocol
import Yams

/// A response that is a WebSocket: `websocket:` in the manifest, or a `.ws` file (the same mapping,
/// in a file of its own), with the messages sent on the open's timeline, the replies to client
/// messages and the close.
extension ManifestParser {
    static let webSocketKeys = ["messages", "replies", "close", "maxMessageBytes", "protocols"]

    /// A `.ws` file's script, and the problems placed in that file.
    static func webSocketFile(_ text: String, file: String, reader: StubFileReader) -> (WebSocketScript?, ProblemList) {
        var parser = ManifestParser(file: file, reader: reader)
        parser.source = YAMLSourceText(text)
        guard let root = parser.compose(text) else { return (nil, parser.problems) }
        let script = parser.parseWebSocket(root)
        return (parser.problems.isEmpty ? script : nil, parser.problems)
    }

    /// The script of a response's `websocket:` (a mapping, or the name of a `.ws` file).
    mutating func parseWebSocketResponse(_ map: Node.Mapping, node: Node) -> WebSocketScript? {
        guard let w = map["websocket"] else { return nil }
        let clashing = ["body", "json", "content", "quotaStatus", "throttle", "fault", "file", "template"] + ManifestParser.eventKeys
        let present = clashing.filter { map[$0] != nil }
        if !present.isEmpty {
            add(node, "a WebSocket response has no \(present.joined(separator: " or "))",
                hint: "what the socket sends goes under websocket: { messages, replies, close }")
        }
        if let name = w.string, w.mapping == nil {
            guard name.fileExtension?.lowercased() == "ws" else {
                add(w, "websocket is a mapping (messages, replies, close) or the name of a .ws file", hint: "websocket: chat.ws")
                return nil
            }
            switch reader.readReferenced(name) {
            case .success(let found):
                let (script, fileProblems) = ManifestParser.webSocketFile(String(decoding: found.data, as: UTF8.self), file: found.path, reader: reader)
                for p in fileProblems.items { problems.add(p) }
                return script
            case .failure:
                add(w, "file '\(name)' cannot be read", hint: "paths are relative to the stubs directory or its __files/ folder")
                return nil
            }
        }
        return parseWebSocket(w)
    }

    mutating func parseWebSocket(_ node: Node) -> WebSocketScript? {
        guard let map = mapping(node, "websocket") else { return nil }
        checkKeys(map, ManifestParser.webSocketKeys, in: "websocket")
        var messages: [WebSocketScriptMessage] = []
        if let list = map["messages"] { messages = outgoing(list, "messages") }
        var replies: [WebSocketReply] = []
        if let list = map["replies"] {
            if case .sequence(let items) = list {
                replies = items.compactMap { reply($0) }
            } else {
                add(list, "replies must be a list (each entry starts with '- ')", hint: "replies: [{ match: { text: ping }, send: { text: pong } }]")
            }
        }
        let close = map["close"].flatMap { closing($0) }
        var maxMessageBytes = WebSocketScript.defaultMaxMessageBytes
        if let m = map["maxMessageBytes"], let n = int(m, "maxMessageBytes") {
            if n < 125 || n > 64 << 20 { add(m, "maxMessageBytes must be from 125 to 67108864 (64 MiB)") } else { maxMessageBytes = n }
        }
        let protocols = map["protocols"].map { subprotocols($0) } ?? []
        return WebSocketScript(messages: messages, replies: replies, close: close, maxMessageBytes: maxMessageBytes,
                               protocols: protocols)
    }

    /// `protocols:` one name or a list: each an HTTP token, as it goes into `Sec-WebSocket-Protocol`.
    private mutating func subprotocols(_ node: Node) -> [String] {
        let items: [Node]
        if case .sequence(let list) = node { items = Array(list) } else { items = [node] }
        var names: [String] = []
        for item in items {
            guard let name = string(item, "a subprotocol") else { continue }
            guard WebSocketSubprotocol.isToken(name) else {
                add(item, "'\(name)' is not a subprotocol name: one token, no spaces, commas or quotes",
                    hint: "protocols: [graphql-transport-ws, v2.chat.example.com]")
                continue
            }
            if names.contains(name) { add(item, "subprotocol '\(name)' is listed twice") } else { names.append(name) }
        }
        return names
    }

    /// `send:` or `messages:`: one message or a list of them.
    private mutating func outgoing(_ node: Node, _ what: String) -> [WebSocketScriptMessage] {
        let items: [Node]
        if case .sequence(let list) = node { items = Array(list) } else { items = [node] }
        return items.compactMap { item in
            guard let map = mapping(item, "a message (text, json or binary, and after)") else { return nil }
            checkKeys(map, ["text", "json", "binary", "after"], in: "a WebSocket message")
            let kinds = ["text", "json", "binary"].filter { map[$0] != nil }
            guard kinds.count == 1 else {
                add(item, "a message has one of text, json or binary", hint: "- { text: hello }  or  - { json: { type: tick }, after: 1s }")
                return nil
            }
            var payload: WebSocketPayload
            if let t = map["text"] {
                guard let text = string(t, "text") else { return nil }
                payload = .text(text)
            } else if let j = map["json"] {
                payload = .text(json(j).serialized)
            } else {
                let b = map["binary"]!
                guard let text = string(b, "binary"), let data = Data(base64Encoded: text) else {
                    add(b, "binary is the payload in base64", hint: "binary: AAECAw==")
                    return nil
                }
                payload = .binary(Array(data))
            }
            let after = map["after"].flatMap { duration($0) } ?? .zero
            return WebSocketScriptMessage(payload, after: after)
        }
    }

    private mutating func reply(_ node: Node) -> WebSocketReply? {
        guard let map = mapping(node, "a reply (match, send, close)") else { return nil }
        checkKeys(map, ["match", "send", "close"], in: "a reply")
        guard let m = map["match"] else {
            add(node, "a reply needs 'match'", hint: "match: { text: ping }, { regex: '^sub ' }, { json: { type: subscribe } } or any")
            return nil
        }
        guard let match = matcher(m) else { return nil }
        let send = map["send"].map { outgoing($0, "send") } ?? []
        let close = map["close"].flatMap { closing($0) }
        if send.isEmpty, close == nil { add(node, "a reply sends something or closes", hint: "send: { text: pong }") }
        return WebSocketReply(match: match, send: send, close: close)
    }

    private mutating func matcher(_ node: Node) -> WebSocketMatch? {
        if node.string == "any" { return .any }
        guard let map = mapping(node, "match (text, regex or json, or the word any)") else { return nil }
        checkKeys(map, ["text", "regex", "json"], in: "match")
        guard map.count == 1, let (key, value) = map.first.map({ ($0.key.string ?? "", $0.value) }) else {
            add(node, "match has one of text, regex or json")
            return nil
        }
        switch key {
        case "text": return string(value, "text").map { .text($0) }
        case "regex":
            guard let source = string(value, "regex") else { return nil }
            do { return .regex(try WebSocketPattern(source)) } catch {
                add(value, "'\(source)' is not a regular expression", hint: "ICU syntax, as NSRegularExpression reads it")
                return nil
            }
        case "json": return .json(json(value))
        default: return nil
        }
    }

    private mutating func closing(_ node: Node) -> WebSocketScriptClose? {
        guard let map = mapping(node, "close (code, reason, after)") else { return nil }
        checkKeys(map, ["code", "reason", "after"], in: "close")
        var close = WebSocketScriptClose()
        if let c = map["code"], let n = int(c, "code") {
            if n >= 0, n <= 0xFFFF, WebSocketMessageAssembler.isSendable(UInt16(n)) { close.code = UInt16(n) } else {
                add(c, "close code \(n) cannot be sent", hint: "1000 (normal), 1001 (going away), 1008 (policy), 1011 (error), or 3000–4999")
            }
        }
        if let r = map["reason"], let text = string(r, "reason") {
            if text.utf8.count > 123 { add(r, "a close reason is at most 123 bytes of UTF-8") } else { close.reason = text }
        }
        if let a = map["after"], let d = duration(a) { close.after = d }
        return close
    }
}

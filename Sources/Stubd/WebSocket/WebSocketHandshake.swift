import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// The opening handshake (RFC 6455 §4.2): whether a request asks for a WebSocket, and the
/// `Sec-WebSocket-Accept` that proves the server read its key. Socket-free.
enum WebSocketHandshake {
    enum Verdict {
        /// A WebSocket handshake: answer 101 with this `Sec-WebSocket-Accept`.
        case accept(String)
        /// Not one, or a broken one: this answer says what to send.
        case refuse(GeneratedResponse)
    }

    /// The GUID every server appends to the client's key (§1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// base64(SHA-1(key + GUID)).
    static func accept(key: String) -> String {
        Data(SHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }

    /// A WebSocket handshake that is not HTTP/1.1 (RFC 6455 §4.1 asks for 1.1 or later), refused as
    /// its head is read, before any route or relay takes it: libmicrohttpd sends nothing for a `101`
    /// on an HTTP/1.0 connection and never hands its socket over, so an HTTP/1.0 handshake got 0
    /// bytes while its socket was listed open in its session, holding every push for ever.
    static func versionRefusal(httpVersion: String, upgrade: String?) -> GeneratedResponse? {
        guard httpVersion != "HTTP/1.1",
              (upgrade ?? "").split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" })
        else { return nil }
        return GeneratedResponse.problem(400, title: "Bad WebSocket handshake",
            detail: "a WebSocket opens with an HTTP/1.1 request (RFC 6455 §4.1); this one is \(httpVersion.isEmpty ? "of no version" : httpVersion): send it as HTTP/1.1")
    }

    /// The accept value for a request with these headers, or the answer that says what it lacks: a
    /// stub's WebSocket route asked with plain HTTP gets 426 naming the headers a client sends.
    static func accept(method: String, upgrade: String?, connection: String?, key: String?,
                       version: String?) -> Verdict {
        func tokens(_ value: String?) -> [String] {
            (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard tokens(upgrade).contains("websocket"), tokens(connection).contains("upgrade") else {
            var refusal = GeneratedResponse.problem(426, title: "Upgrade Required",
                detail: "this route is a WebSocket: open it with a WebSocket client (GET with Upgrade: websocket, Connection: Upgrade, Sec-WebSocket-Key and Sec-WebSocket-Version: 13)")
            refusal.headers[.upgrade] = "websocket"
            refusal.headers[.connection] = "Upgrade"
            return .refuse(refusal)
        }
        guard method == "GET" else {
            return .refuse(GeneratedResponse.problem(400, title: "Bad WebSocket handshake", detail: "a WebSocket opens with GET, not \(method)"))
        }
        guard version?.trimmingCharacters(in: .whitespaces) == "13" else {
            var refusal = GeneratedResponse.problem(426, title: "Unsupported WebSocket version",
                detail: "stubd speaks WebSocket version 13 (RFC 6455); the request asked for \(version ?? "none")")
            refusal.headers[HTTPField.Name("Sec-WebSocket-Version")!] = "13"
            return .refuse(refusal)
        }
        guard let key = key?.trimmingCharacters(in: .whitespaces), Data(base64Encoded: key)?.count == 16 else {
            return .refuse(GeneratedResponse.problem(400, title: "Bad WebSocket handshake",
                detail: "Sec-WebSocket-Key must be 16 random bytes in base64 (24 characters); got \(key.map { "'\($0.prefix(60))'" } ?? "none")"))
        }
        return .accept(accept(key: key))
    }
}

import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// The `101` a relayed WebSocket's app gets: the API's agreement, in our words. Socket-free.
enum WebSocketRelayHandshake {
    /// `Upgrade: websocket` on a request: relayed as a WebSocket, not forwarded as HTTP (libcurl
    /// would drop the upgrade, a hop-by-hop header, and the API would answer a plain GET).
    static func asksForWebSocket(_ headers: HTTPFields) -> Bool {
        headers[values: .upgrade].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" }
        }
    }

    /// The app's `101`: its own `Sec-WebSocket-Accept` (for the key it sent), the subprotocol the
    /// API chose, and the API's cookies; its extensions are not agreed (none was offered to it).
    static func headers(clientKey: String?, upstream: HTTPFields) -> HTTPFields {
        var headers = HTTPFields()
        headers[.upgrade] = "websocket"
        headers[.connection] = "Upgrade"
        if let key = clientKey?.trimmingCharacters(in: .whitespaces) {
            headers[HTTPField.Name("Sec-WebSocket-Accept")!] = WebSocketHandshake.accept(key: key)
        }
        if let chosen = upstream[HTTPField.Name("Sec-WebSocket-Protocol")!] {
            headers[HTTPField.Name("Sec-WebSocket-Protocol")!] = chosen
        }
        for cookie in upstream where cookie.name == .setCookie { headers.append(cookie) }
        return headers
    }
}

import CMicroHTTPD
import Foundation
import HTTPTypes
import StubdCore

/// A stub whose answer is a WebSocket (`websocket:`, a `.ws` file): the handshake checked, then a
/// `101` whose socket a `WebSocketConnection` takes over. The connection is one request: its hit,
/// quota and journal entry were counted when it matched.
extension RequestRouter {
    func webSocket(_ script: WebSocketScript, _ canned: CannedResponse, _ extra: ExtraHeaders, session: String, route: String?,
                   _ connection: borrowing Connection, method: String) -> (response: Response, note: String?) {
        switch WebSocketHandshake.accept(method: method, upgrade: connection.headerString("Upgrade"), connection: connection.headerString("Connection"),
                                         key: connection.headerString("Sec-WebSocket-Key"), version: connection.headerString("Sec-WebSocket-Version")) {
        case .refuse(let refusal):
            return (.generated(refusal), "not a WebSocket handshake")
        case .accept(let accept):
            var headers = canned.headers + extra.list
            headers[.contentType] = nil
            headers[.upgrade] = "websocket"
            headers[.connection] = "Upgrade"
            headers[HTTPField.Name("Sec-WebSocket-Accept")!] = accept
            let state = engine.session(session)
            let socket = WebSocketConnection(script: script, clock: state.clock, registry: webSockets, traffic: state.streams,
                                             route: route ?? "")
            return (.upgrade(headers: headers, connection: socket), "websocket")
        }
    }
}

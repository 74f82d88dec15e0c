import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// A stub whose answer is a WebSocket (`websocket:`, a `.ws` file): the handshake checked, then a
/// `101` whose socket a `WebSocketConnection` takes over. The connection is one request: its hit,
/// quota and journal entry were counted when it matched.
extension RequestRouter {
    func webSocket(_ script: WebSocketScript, _ canned: CannedResponse, _ extra: ExtraHeaders, session: String, route: String?,
                   journal: Int?, _ connection: borrowing Connection, method: String) -> (response: Response, note: String?) {
        // Gone while the answer waited out its delay (the departure sweep ends such a wait early): a
        // socket made now would stay listed as open, since libmicrohttpd drops a 101 it cannot send
        // without telling us (see `ResponseWriter.upgrade`).
        let fd = connection.fd
        if fd >= 0, Sockets.peerHasLeft(fd) {
            engine.session(session).streams.abandoned(route: route ?? "")
            return (.drop(reset: false), "client left before the 101")
        }
        switch WebSocketHandshake.accept(method: method, upgrade: connection.headerString("Upgrade"), connection: connection.headerString("Connection"),
                                         key: connection.headerString("Sec-WebSocket-Key"), version: connection.headerString("Sec-WebSocket-Version")) {
        case .refuse(let refusal):
            engine.session(session).streams.abandoned(route: route ?? "")
            return (.generated(refusal), "not a WebSocket handshake")
        case .accept(let accept):
            var headers = canned.headers + extra.list
            switch WebSocketSubprotocol.choose(offered: WebSocketSubprotocol.offers(connection.headerValues(named: "Sec-WebSocket-Protocol")),
                                               spoken: script.protocols) {
            case .agreed(let name): headers[HTTPField.Name("Sec-WebSocket-Protocol")!] = name
            case .none: headers[HTTPField.Name("Sec-WebSocket-Protocol")!] = nil
            case .refused(let offered, let spoken):
                // Matched as connecting, but never opens: a push must not be held (and counted) for it.
                engine.session(session).streams.abandoned(route: route ?? "")
                return (.generated(.problem(400, title: "No common WebSocket subprotocol",
                    detail: "the client offered \(offered.joined(separator: ", ")) (Sec-WebSocket-Protocol); this stub speaks "
                        + "\(spoken.joined(separator: ", ")) (protocols: in its websocket script)")), "no common subprotocol")
            }
            headers[.contentType] = nil
            headers[.upgrade] = "websocket"
            headers[.connection] = "Upgrade"
            headers[HTTPField.Name("Sec-WebSocket-Accept")!] = accept
            let state = engine.session(session)
            let socket = WebSocketConnection(script: script, clock: state.clock, registry: webSockets, traffic: state.streams,
                                             route: route ?? "", journal: journal.map { (state.streamJournal, $0) },
                                             changed: changeNotice(session))
            return (.upgrade(headers: headers, connection: socket), "websocket")
        }
    }

    /// A WebSocket answer still unsent when its request ends: its client left while the answer waited
    /// out its delay, and libmicrohttpd, seeing it gone on the resume, never asked for it. Its match's
    /// "connecting" mark is taken back, so a push is not held (and counted) for a socket that will not open.
    func abandonUnsentWebSocket(_ answer: Outcome.Answer, _ context: RequestContext) {
        guard case .canned(let canned, _) = answer, canned.webSocket != nil, let line = context.logLine else { return }
        engine.session(line.session).streams.abandoned(route: line.route ?? "")
    }

    /// Tells the dashboard's event streams (`ChangeFeed`) that `session` changed: a stream's counts
    /// moved between requests (a socket closed, the app sent a message), which no request journaled says.
    func changeNotice(_ session: String) -> @Sendable () -> Void {
        let changes = engine.changes
        return { changes.note(session) }
    }
}

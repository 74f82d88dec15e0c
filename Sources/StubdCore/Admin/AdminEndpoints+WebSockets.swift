import Foundation
import HTTPTypes
import StubdProtocol
import StubdEngine

extension AdminEndpoints {
    /// The session's routes whose answer is a WebSocket: the catalog's, then its runtime stubs.
    func webSocketRoutes(in session: SessionState) -> [Route] {
        (catalog.routes + session.runtimeStubs().map(\.route)).filter { $0.responses.contains { $0.webSocket != nil } }
    }

    /// The WebSocket route `name` names, as a hit count names a route: its name, its signature
    /// (`GET /chat`), or a concrete path it matches (`/rooms/lobby`, `GET /rooms/lobby`); otherwise
    /// nil (`noSuchWebSocket` says why).
    func webSocketRoute(_ name: String, in session: SessionState) -> Route? {
        route(name, among: webSocketRoutes(in: session))
    }

    /// The route of `routes` that `name` names: its name, key or signature, or a concrete path it matches.
    func route(_ name: String, among routes: [Route]) -> Route? {
        if let route = routes.first(where: { $0.name == name || $0.key == name || $0.signature == name }) { return route }
        if case .success(let query) = RouteQuery.parse(name), case let .concrete(method, path) = query.target {
            let segments = PathPattern.split(path)
            return routes.first { route in
                if case .only(let m) = method, !route.method.accepts(m) { return false }
                return route.pattern.match(segments) != nil
            }
        }
        return nil
    }

    /// The 404 for a name `webSocketRoute` finds nothing for, listing the WebSocket routes there are.
    func noSuchWebSocket(_ name: String, in session: SessionState) -> GeneratedResponse {
        let known = webSocketRoutes(in: session).map(\.key)
        return .problem(404, title: "No such WebSocket",
            detail: "'\(name)' names no WebSocket route in this session (a route name, its signature such as 'GET /chat', or a path it answers); "
                + (known.isEmpty ? "no route answers with a WebSocket (websocket: or a .ws file)" : "WebSocket routes: " + known.joined(separator: ", ")))
    }

    /// `GET /__stubd/websockets`.
    func webSocketsReport(_ session: SessionState) -> WebSocketsReport {
        WebSocketsReport(session: session.id, webSockets: webSocketRoutes(in: session).map { route in
            let traffic = session.streams.route(route.key)
            return WebSocketsReport.Route(route: route.key, signature: route.signature, open: traffic.open.count,
                                          received: traffic.receivedTotal, sent: traffic.sent)
        })
    }

    /// `GET /__stubd/websockets/{name}/messages?after=N`: what the app sent, after its `after`th message.
    func webSocketMessages(_ name: String, after: Int, in session: SessionState) -> GeneratedResponse {
        guard let route = webSocketRoute(name, in: session) else { return noSuchWebSocket(name, in: session) }
        let traffic = session.streams.route(route.key)
        return .document(200, WebSocketMessagesReport(route: route.key, session: session.id, total: traffic.receivedTotal,
                                                      messages: traffic.received.filter { $0.index > after }.map { message in
            var text: String?, binary: String?
            switch message.payload {
            case .text(let t): text = t
            case .binary(let b): binary = Data(b).base64EncodedString()
            }
            return WebSocketMessagesReport.Message(index: message.index, time: JournalEntry.timeFormat(message.time), text: text,
                                                   binary: binary, truncated: message.truncated ? true : nil)
        }))
    }

    /// `POST /__stubd/websockets/{name}/messages`: the message queued on every socket of the route open in the session.
    func pushWebSocketMessage(_ name: String, body: Data, in session: SessionState) -> GeneratedResponse {
        guard let route = webSocketRoute(name, in: session) else { return noSuchWebSocket(name, in: session) }
        let payload: WebSocketPayload
        switch try? AdminCoding.decode(WebSocketPush.self, from: body) {
        case let push? where push.text != nil && push.binary == nil:
            payload = .text(push.text!)
        case let push? where push.binary != nil && push.text == nil:
            guard let bytes = Data(base64Encoded: push.binary!) else {
                return .problem(400, title: "Bad message", detail: "binary must be base64, as {\"binary\": \"AAEC\"}")
            }
            payload = .binary(Array(bytes))
        default:
            return .problem(400, title: "Bad message", detail: #"send {"text": "hello"} or {"binary": "AAEC"} (base64), one of the two"#)
        }
        let sockets = session.streams.push(payload, route: route.key)
        guard sockets > 0 else {
            let prefix = session.id.isEmpty ? "" : "/__s/\(session.id)"
            return .problem(409, title: "No socket open",
                            detail: "no WebSocket of '\(route.key)' is open in this session: the app connects to \(prefix)\(route.signature.split(separator: " ", maxSplits: 1).last ?? "") first (GET /__stubd/websockets lists open sockets)")
        }
        return .document(200, WebSocketPushed(route: route.key, session: session.id, sockets: sockets))
    }
}

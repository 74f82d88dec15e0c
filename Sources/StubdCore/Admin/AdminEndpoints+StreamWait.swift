import Foundation
import HTTPTypes
import StubdProtocol
import StubdEngine

extension AdminEndpoints {
    /// The session's routes whose answer streams: server-sent events or a WebSocket.
    func streamRoutes(in session: SessionState) -> [Route] {
        (catalog.routes + session.runtimeStubs().map(\.route)).filter { $0.responses.contains { $0.events != nil || $0.webSocket != nil } }
    }

    /// `GET /__stubd/streams/wait?route=…&of=sent|received|open&count=N&timeout=S`: held until the
    /// stream route's count in the session reaches N (events or messages the server sent, messages
    /// the app sent, streams open), or the time is up.
    func waitForStream(query: [QueryItem], session: SessionState) -> AdminReply {
        func q(_ name: String) -> String? { query.first { $0.name == name }?.value ?? nil }
        guard let name = q("route") else {
            return .response(.problem(400, title: "Missing route", detail: "streams/wait needs ?route=NAME (a stream route's name, signature or a path it answers) and ?count=N"))
        }
        let routes = streamRoutes(in: session)
        guard let route = route(name, among: routes) else {
            let known = routes.map(\.key)
            return .response(.problem(404, title: "No such stream",
                detail: "'\(name)' names no route that streams in this session (a route name, its signature such as 'GET /stream', or a path it answers); "
                    + (known.isEmpty ? "no route answers with events or a WebSocket" : "stream routes: " + known.joined(separator: ", "))))
        }
        guard let measure = StreamTraffic.Measure(rawValue: q("of") ?? "sent") else {
            return .response(.problem(400, title: "Bad of", detail: "of is sent (events or messages the server sent), received (messages the app sent) or open, got '\(q("of") ?? "")'"))
        }
        guard let count = Int(q("count") ?? "1"), count >= 0 else {
            return .response(.problem(400, title: "Bad count", detail: "count must be a whole number ≥ 0, got '\(q("count") ?? "")'"))
        }
        guard let timeout = Double(q("timeout") ?? "2"), timeout >= 0, timeout <= 300 else {
            return .response(.problem(400, title: "Bad timeout", detail: "timeout is seconds between 0 and 300, got '\(q("timeout") ?? "")'"))
        }
        let traffic = session.streams, key = route.key, signature = route.signature
        let kind = route.responses.contains { $0.webSocket != nil } ? "websocket" : "events"
        return .hold(AdminHold(timeout: timeout, register: { fire in traffic.wait(route: key, measure: measure, count: count, fire: fire) },
                               cancel: { traffic.cancelWait($0) }, answer: {
            let now = traffic.route(key)
            let reached = now.count(measure)
            return .document(reached >= count ? 200 : 408, StreamWait(route: key, signature: signature, kind: kind, of: measure.rawValue,
                                                                      count: reached, expected: count, open: now.count(.open), recent: now.recentSent))
        }))
    }
}

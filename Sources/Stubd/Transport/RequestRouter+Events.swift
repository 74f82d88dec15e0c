import CMicroHTTPD
import Foundation
import StubdCore
import StubdProtocol

/// `GET /__stubd/events`: the dashboard's Server-Sent Events stream. It rides on the same
/// machinery as a forwarded download (`StreamedBody`): libmicrohttpd's content reader finds nothing
/// to send, suspends the connection, and the next event resumes it, so an open stream holds no
/// worker thread. The server's stop resumes it like any suspended connection, and it ends.
extension RequestRouter {
    func openEvents(session: String?, started: UInt64?, _ connection: OpaquePointer, line: RequestLogLine) -> MHD_Result {
        let feed = engine.changes
        let subscription = Locked<Int>(0)
        // Called when the client is gone (libmicrohttpd frees the response): nothing more to tell it.
        let body = StreamedBody(initial: Data("retry: 1000\n: stubd events\n\n".utf8)) {
            let id = subscription.withLock { $0 }
            if id != 0 { feed.unsubscribe(id) }
        }
        let id = feed.subscribe(session: session) { event in
            let frame: String
            switch event {
            case .changed(let sessions):
                frame = "event: change\ndata: " + JSONValue.array(sessions.map { .string($0) }).serialized + "\n\n"
            case .ping:
                frame = ": ping\n\n"
            }
            let outcome = Array(frame.utf8).withUnsafeBytes { body.append($0) }
            switch outcome {
            case .taken: return true
            case .abandoned: return false
            case .full:
                // A client this far behind reconnects (EventSource does on its own) and refetches.
                body.finish(failed: true)
                return false
            }
        }
        guard let id else {
            return send(.generated(.problem(503, title: "Too many event streams",
                detail: "\(feed.maxSubscribers) dashboard event streams are open, the most this server keeps; close a dashboard tab and reload",
                headers: [.retryAfter: "5"])), nil, connection, line: line)
        }
        subscription.withLock { $0 = id }
        let reply = Unmanaged.passRetained(StreamedReply(body: body, connection: connection, router: self)).toOpaque()
        let r = MHD_create_response_from_callback(UInt64.max, 4096, StreamedReply.reader, reply, StreamedReply.release)!
        for (name, value) in [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                              ("X-Content-Type-Options", "nosniff")] {
            MHD_add_response_header(r, name, value)
        }
        let result = MHD_queue_response(connection, 200, r)
        MHD_destroy_response(r)
        writeLog(line, status: 200, started: started)
        return result
    }
}

import Foundation
import HTTPTypes
import StubdCore
import StubdEngine
import StubdProtocol

/// `GET /__stubd/events`: the dashboard's Server-Sent Events stream, a `StreamedBody` the change
/// feed appends to. With nothing to send the stream pauses its connection and the next event
/// resumes it, so an open stream holds no worker thread; the server's stop resumes it, and it ends.
enum DashboardEvents {
    static func response(feed: ChangeFeed, session: String?) -> Response {
        let subscription = Locked<Int>(0)
        // Called when the client is gone (libmicrohttpd frees the response): nothing more to tell it.
        let body = StreamedBody(initial: Data("retry: 1000\n: stubd events\n\n".utf8), blockSize: 4096) {
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
            return .generated(.problem(503, title: "Too many event streams",
                detail: "\(feed.maxSubscribers) dashboard event streams are open, the most this server keeps; close a dashboard tab and reload",
                headers: [.retryAfter: "5"]))
        }
        subscription.withLock { $0 = id }
        return .stream(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                                              .xContentTypeOptions: "nosniff"], length: nil, body: body)
    }
}

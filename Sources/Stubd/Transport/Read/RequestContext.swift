import Foundation
import StubdCore
import HTTPTypes

/// Per-request state, from libmicrohttpd's first call for a request to its completion notice.
/// MHD calls the handler for one connection from one thread at a time, so only `lifecycle` is shared.
final class RequestContext: @unchecked Sendable {
    /// What to do when a suspended request is resumed.
    enum Pending {
        /// Send this after the delay.
        case answer(Outcome.Answer)
        /// A long-poll for hits; answer with the count reached by then.
        case hitsWait(session: SessionState, query: RouteQuery, count: Int, waiterID: Int?)
        /// Another admin long-poll; its registration once made.
        case adminHold(AdminHold, registration: Int?)
        /// Written as it is, its log line written elsewhere or not at all (a forwarded answer too
        /// large to hold, sent as it arrives; a `hang`'s close).
        case response(Response)
    }

    let started = DispatchTime.now().uptimeNanoseconds
    var body = Data()
    var bodyTooLarge = false
    var pending: Pending?
    /// Kept from the first pass for the request log line written after a delay.
    var logLine: RequestLogLine?
    /// Its connection while suspended, for the resume.
    var connection: ConnectionHandle?
    /// The connection's socket while suspended, so a client that went away can be noticed.
    var socket: Int32 = -1
    /// Shared because a timer, a waiter, a forward and `stop()` may each try to resume it.
    let lifecycle: SharedRequestLifecycle

    /// `phase` is `.answering` for a context made once the request is in (a delay, a content reader).
    init(phase: RequestLifecycle.Phase = .headers) {
        lifecycle = SharedRequestLifecycle(phase)
    }

    /// Keeps a piece of the body, or from the first byte past `limit` on, only that it was too large.
    func receiveBody(_ bytes: UnsafeRawBufferPointer, limit: Int) {
        lifecycle.move { $0.receiveBody() }
        guard !bodyTooLarge else { return }
        if body.count + bytes.count > limit {
            bodyTooLarge = true
            body = Data()
        } else {
            body.append(contentsOf: bytes)
        }
    }
}

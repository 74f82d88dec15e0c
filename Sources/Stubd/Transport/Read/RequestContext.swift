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
        /// An admin long-poll (`hits/wait`, `streams/wait`); its registration once made.
        case adminHold(AdminHold, registration: Int?)
        /// Written as it is, its log line written elsewhere or not at all (a forwarded answer too
        /// large to hold, sent as it arrives; a `hang`'s close).
        case response(Response)
    }

    let started = DispatchTime.now().uptimeNanoseconds
    var body = Data()
    var pending: Pending?
    /// Kept from the first pass for the request log line written after a delay.
    var logLine: RequestLogLine?
    /// Its connection while suspended, for the resume.
    var connection: ConnectionHandle?
    /// The connection's socket while suspended, so a client that went away can be noticed.
    var socket: Int32 = -1
    /// Shared because a timer, a waiter, a forward and `stop()` may each try to resume it.
    let lifecycle: SharedRequestLifecycle

    /// `state` is where the request is when the context is made: its head read (the usual), the
    /// whole request in (a delay, a CONNECT, a refusal), or a stream pausing (`StreamPause`).
    init(_ state: RequestLifecycle.State = .readingBody) {
        lifecycle = SharedRequestLifecycle(state)
    }

    /// Keeps a piece of the body; false, with what was kept dropped, when it would pass `limit`
    /// (the lifecycle then discards the rest, `RequestLifecycle.Event.bodyOverLimit`).
    func keepBody(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Bool {
        guard body.count + bytes.count <= limit else {
            body = Data()
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }
}

import Foundation
import StubdCore
import HTTPTypes

/// Per-request state, from libmicrohttpd's first call for a request to its completion notice: the
/// lifecycle with its work (the body read so far, what a hold will finish), inherited so that it is
/// shared across threads without an allocation of its own, and what the transport keeps beside it.
/// MHD calls the handler for one connection from one thread at a time, so only the lifecycle is shared.
final class RequestContext: SharedRequestLifecycle<PendingWork>, @unchecked Sendable {
    let started = DispatchTime.now().uptimeNanoseconds
    /// Kept from the first pass for the request log line written after a delay.
    var logLine: RequestLogLine?
    /// Its connection while suspended, for the resume.
    var connection: ConnectionHandle?
    /// The connection's socket while suspended, so a client that went away can be noticed.
    var socket: Int32 = -1

    /// `state` is where the request is when the context is made: its head read (the usual, with the
    /// body so far when a plain request's first piece of body arrives), the whole request in (a
    /// delay, a CONNECT, a refusal), or a stream pausing (`StreamPause`).
    override init(_ state: Lifecycle.State = .readingBody(Data())) {
        super.init(state)
    }
}

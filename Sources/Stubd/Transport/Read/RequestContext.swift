import Foundation
import StubdCore
import StubdEngine
import HTTPTypes
import Synchronization

/// Per-request state, from libmicrohttpd's first call for a request to its completion notice: the
/// lifecycle with its work (the body read so far, what a hold will finish), shared across threads
/// behind a one-byte gate (`SharedRequestLifecycle`) without an allocation of its own, and what the
/// transport keeps beside it. MHD calls the handler for one connection from one thread at a time,
/// so only the lifecycle is shared.
final class RequestContext: @unchecked Sendable {
    typealias Lifecycle = RequestLifecycle<PendingWork>

    private let gate = Atomic<UInt8>(SharedRequestLifecycle.open)
    /// Read and written only with the gate taken (so the runtime's exclusivity check is not needed).
    @exclusivity(unchecked) private var life: Lifecycle

    /// When the request's head arrived (`DispatchTime`'s uptime nanoseconds), for its log line's latency.
    let started: UInt64
    /// Kept from the first pass for the request log line written after a delay.
    var logLine: RequestLogLine?
    /// Its connection while suspended, for the resume.
    var connection: ConnectionHandle?
    /// The connection's socket while suspended, so a client that went away can be noticed.
    var socket: Int32 = -1

    /// `state` is where the request is when the context is made: its head read (the usual, with the
    /// body so far when a plain request's first piece of body arrives), the whole request in (a
    /// delay, a CONNECT, a refusal), or a stream pausing (`StreamPause`).
    /// `started`: when the head arrived, if before now (a logged plain request's slot kept it).
    init(_ state: Lifecycle.State = .readingBody(Data()), started: UInt64? = nil) {
        life = Lifecycle(state)
        self.started = started ?? DispatchTime.now().uptimeNanoseconds
    }

    /// Moves by `event` atomically and returns the action for the state it moved from.
    @discardableResult
    func handle(_ event: Lifecycle.Event) -> Lifecycle.Action {
        SharedRequestLifecycle.withGate(gate) { life.handle(event) }
    }
}

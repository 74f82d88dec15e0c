import CMicroHTTPD
import Foundation
import StubdCore

/// A stub's answer on the wire: held for a `hang` or a `delay`, then sent whole, broken by a
/// `fault` or `throttle`d, as `NetworkBehaviour` decides. The only place these happen.
extension RequestRouter {
    /// Sends a stub's answer, first holding the connection suspended if its behaviour says so.
    func deliverStub(_ answer: Outcome.Answer, _ context: RequestContext, _ connection: OpaquePointer,
                     line: RequestLogLine) -> MHD_Result {
        context.logLine = line
        guard case .canned(let canned, _) = answer, let hold = NetworkBehaviour.hold(for: canned) else {
            return deliver(answer, context, connection)
        }
        context.pending = pending(answer, during: hold)
        guard suspend(context, connection) else {
            // Stopping: a hang closes, a delayed answer goes at once.
            return hold == .hang ? .NO : send(answer, context, connection, line: line)
        }
        schedule(after: hold.nanoseconds) { [self] in resume(context) }
        return .YES
    }

    /// A rendered answer whose connection is suspended already (see `renderOffWorker`): resumed
    /// when its hold is over, or now.
    func release(_ context: RequestContext, rendered answer: Outcome.Answer) {
        guard case .canned(let canned, _) = answer, let hold = NetworkBehaviour.hold(for: canned) else {
            context.pending = .answer(answer)
            return resume(context)
        }
        context.pending = pending(answer, during: hold)
        schedule(after: hold.nanoseconds) { [self] in resume(context) }
    }

    private func pending(_ answer: Outcome.Answer, during hold: NetworkBehaviour.Hold) -> RequestContext.Pending {
        hold == .hang ? .hang : .answer(answer)
    }

    /// Sends an answer whose hold is over (or had none): whole, broken by its fault, or throttled.
    func deliver(_ answer: Outcome.Answer, _ context: RequestContext, _ connection: OpaquePointer) -> MHD_Result {
        let line = context.logLine ?? RequestLogLine(method: "", path: "", status: 0, session: "", latencyMicroseconds: 0, isAdmin: false)
        guard case .canned(let canned, let extra) = answer else { return send(answer, context, connection, line: line) }
        switch NetworkBehaviour.delivery(for: canned) {
        case .whole:
            return send(answer, context, connection, line: line)
        case .throttled(let rate):
            return dribble(canned, extra, rate: rate, connection, line: line)
        case .fault(let fault):
            writeLog(line, status: fault == .truncatedBody ? canned.status.code : 0, note: "fault \(fault.rawValue)", started: context.started)
            switch fault {
            case .connectionReset:
                // SO_LINGER with a zero timeout turns the close into an RST.
                let fd = shim_connection_fd(connection)
                if fd >= 0 { Sockets.resetOnClose(fd) }
                return .NO
            case .emptyResponse, .hang:
                return .NO
            case .truncatedBody:
                let r = TruncatedBody.response(for: canned, extraHeaders: extra.list)
                let result = MHD_queue_response(connection, UInt32(canned.status.code), r)
                MHD_destroy_response(r)
                return result
            case .malformedJSON:
                return send(answer, context, connection, line: line)
            }
        }
    }

    /// `throttle`: the body goes out at `rate` bytes per second. The content reader sends what the
    /// budget allows, then suspends the connection until more is due, so no worker thread waits.
    private func dribble(_ canned: CannedResponse, _ extra: ExtraHeaders, rate: Int,
                         _ connection: OpaquePointer, line: RequestLogLine) -> MHD_Result {
        let source = Dribble(bytes: canned.body, rate: rate, connection: connection, router: self)
        let handle = Unmanaged.passRetained(source).toOpaque()
        let r = MHD_create_response_from_callback(UInt64(canned.body.count), 64 * 1024, Dribble.reader, handle, Dribble.release)!
        for h in canned.headers + extra.list { MHD_add_response_header(r, h.name.rawName, h.value) }
        let result = MHD_queue_response(connection, UInt32(canned.status.code), r)
        MHD_destroy_response(r)
        writeLog(line, status: canned.status.code, note: "throttled \(rate) B/s", started: nil)
        return result
    }

    /// Suspends a connection from inside a content reader, registered like any other suspension
    /// so `stop()` resumes it; false when the server is stopping.
    func suspendForDribble(_ connection: OpaquePointer, after nanoseconds: UInt64) -> Bool {
        let context = RequestContext(phase: .answering)
        guard suspend(context, connection) else { return false }
        schedule(after: nanoseconds) { [self] in resume(context) }
        return true
    }
}

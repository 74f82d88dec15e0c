import CMicroHTTPD
import Foundation
import StubdCore
import Synchronization

extension RequestRouter {
    // MARK: Templates that loop

    /// Renders on a Dispatch thread with the connection suspended, so the requests behind this one
    /// on the worker are answered meanwhile (a 71 MB render held them 1.6 s); then goes on as
    /// `deliverSpecial` does with the rendered answer's hang or delay, and `deliverNow` with the rest.
    func renderOffWorker(_ job: DeferredRender, _ context: RequestContext, _ connection: OpaquePointer,
                                 line: RequestLogLine) -> MHD_Result {
        context.logLine = line
        guard suspend(context, connection) else { return deliverNow(engine.render(job).answer, context, connection) }
        DispatchQueue.global().async { [self] in
            let answer = engine.render(job).answer
            context.pending = .answer(answer)
            if case .canned(let canned, _) = answer {
                if canned.fault == .hang {
                    context.pending = .hang
                    schedule(after: 300_000_000_000) { [self] in resume(context) }
                    return
                }
                if let delay = canned.delay {
                    schedule(after: delay.sample()) { [self] in resume(context) }
                    return
                }
            }
            resume(context)
        }
        return .YES
    }

    // MARK: Delays, faults and long-polls

    func deliverSpecial(_ canned: CannedResponse, _ outcome: Outcome, _ context: RequestContext,
                                _ connection: OpaquePointer, line: RequestLogLine) -> MHD_Result {
        context.logLine = line
        if canned.fault == .hang {
            context.pending = .hang
            if !suspend(context, connection) { return .NO }
            // A suspended connection never times out by itself; let a forgotten hang go after five minutes.
            schedule(after: 300_000_000_000) { [self] in resume(context) }
            return .YES
        }
        if let delay = canned.delay {
            context.pending = .answer(outcome.answer)
            guard suspend(context, connection) else { return send(outcome.answer, context, connection, line: line) }
            schedule(after: delay.sample()) { [self] in resume(context) }
            return .YES
        }
        return deliverNow(outcome.answer, context, connection)
    }

    /// Sends an answer whose delay is over (or had none), applying its fault.
    func deliverNow(_ answer: Outcome.Answer, _ context: RequestContext, _ connection: OpaquePointer) -> MHD_Result {
        let line = context.logLine ?? RequestLogLine(method: "", path: "", status: 0, session: "", latencyMicroseconds: 0, isAdmin: false)
        guard case .canned(let canned, let extra) = answer, let fault = canned.fault else {
            if case .canned(let canned, let extra) = answer, let rate = canned.bytesPerSecond {
                return dribble(canned, extra, rate: rate, context, connection, line: line)
            }
            return send(answer, context, connection, line: line)
        }
        logFault(fault, canned, context, line)
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
            let result = MHD_queue_response(connection, UInt32(canned.status), r)
            MHD_destroy_response(r)
            return result
        case .malformedJSON:
            return send(answer, context, connection, line: line)
        }
    }

    /// `throttle`: the body goes out at `rate` bytes per second. The content reader sends what the
    /// budget allows, then suspends the connection until more is due, so no worker thread waits.
    func dribble(_ canned: CannedResponse, _ extra: ExtraHeaders, rate: Int,
                         _ context: RequestContext, _ connection: OpaquePointer, line: RequestLogLine) -> MHD_Result {
        let source = Dribble(bytes: canned.body, rate: rate, connection: connection, router: self)
        let handle = Unmanaged.passRetained(source).toOpaque()
        let r = MHD_create_response_from_callback(UInt64(canned.body.count), 64 * 1024, Dribble.reader, handle, Dribble.release)!
        for h in canned.headers + extra.list { MHD_add_response_header(r, h.name, h.value) }
        let result = MHD_queue_response(connection, UInt32(canned.status), r)
        MHD_destroy_response(r)
        if let log {
            var line = line
            line.status = canned.status
            line.note = "throttled \(rate) B/s"
            log(line)
        }
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

    func logFault(_ fault: Fault, _ canned: CannedResponse, _ context: RequestContext, _ line: RequestLogLine) {
        guard let log else { return }
        var line = line
        line.status = fault == .truncatedBody ? canned.status : 0
        line.note = "fault \(fault.rawValue)"
        line.latencyMicroseconds = Int((DispatchTime.now().uptimeNanoseconds - context.started) / 1000)
        log(line)
    }

    /// Goes on with a request whose connection was resumed: what it was waiting for is now due.
    func finish(_ pending: RequestContext.Pending, _ context: RequestContext, _ connection: OpaquePointer) -> MHD_Result {
        switch pending {
        case .answer(let answer):
            return deliverNow(answer, context, connection)
        case let .hitsWait(session, query, count, waiterID):
            if let waiterID { engine.cancelWait(session: session, id: waiterID) }
            return finishWait(context, connection, session: session, query: query, count: count)
        case .hang:
            return .NO
        case let .stream(status, headers, body):
            let reply = Unmanaged.passRetained(StreamedReply(body: body, connection: connection, router: self)).toOpaque()
            let r = MHD_create_response_from_callback(UInt64.max, 64 * 1024, StreamedReply.reader, reply, StreamedReply.release)!
            for h in headers { MHD_add_response_header(r, h.name, h.value) }
            let result = MHD_queue_response(connection, UInt32(status), r)
            MHD_destroy_response(r)
            return result
        }
    }
}

import Foundation
import StubdCore
import StubdEngine

/// A stub's answer on the wire: held for a `hang` or a `delay`, then sent whole, broken by a
/// `fault` or `throttle`d, as `NetworkBehaviour` decides. The only place these happen.
extension RequestRouter {
    /// Sends a stub's answer, first holding the connection suspended if its behaviour says so.
    func deliverStub(_ answer: Outcome.Answer, _ context: RequestContext, _ connection: borrowing Connection,
                     line: RequestLogLine) -> CallResult {
        context.logLine = line
        guard case .canned(let canned, _) = answer, let hold = NetworkBehaviour.hold(for: canned) else {
            return deliver(answer, context, connection)
        }
        return write(.held(HeldAnswer(context: context, work: pending(answer, line: nil, during: hold), start: { resume in
            Suspensions.schedule(after: hold.nanoseconds) { resume(nil) }
        }, now: { [self] connection in
            // Stopping: a hang closes, a delayed answer goes at once.
            hold == .hang ? write(.drop(reset: false), connection) : send(Response(answer), context, connection, line: line)
        })), connection)
    }

    /// A rendered answer whose connection is suspended already (see `renderOffWorker`), logged
    /// with `line`: resumed when its hold is over, or now.
    func release(_ context: RequestContext, rendered answer: Outcome.Answer, line: RequestLogLine) {
        guard case .canned(let canned, _) = answer, let hold = NetworkBehaviour.hold(for: canned) else {
            return suspensions.resume(context, finishing: .answer(answer, line: line))
        }
        // The render's place in the hold goes to its answer, so `stop()` meanwhile sends it at once.
        context.handle(.holdWillFinish(pending(answer, line: line, during: hold)))
        Suspensions.schedule(after: hold.nanoseconds) { [suspensions] in suspensions.resume(context, finishing: nil) }
    }

    private func pending(_ answer: Outcome.Answer, line: RequestLogLine?, during hold: NetworkBehaviour.Hold) -> PendingWork {
        hold == .hang ? .response(.drop(reset: false)) : .answer(answer, line: line)
    }

    /// Sends an answer whose hold is over (or had none), as its behaviour has it go out.
    func deliver(_ answer: Outcome.Answer, _ context: RequestContext, _ connection: borrowing Connection) -> CallResult {
        let line = context.logLine ?? RequestLogLine(method: "", path: "", status: 0, session: "", latencyMicroseconds: 0, isAdmin: false)
        guard case .canned(let canned, let extra) = answer else { return send(Response(answer), context, connection, line: line) }
        let (response, note): (Response, String?)
        if let events = canned.events {
            (response, note) = eventStream(events, canned, extra, session: line.session, route: line.route, journal: line.connection, connection)
        } else if let script = canned.webSocket {
            (response, note) = webSocket(script, canned, extra, session: line.session, route: line.route, journal: line.connection, connection, method: line.method)
        } else {
            (response, note) = NetworkBehaviour.response(for: canned, extra)
        }
        // A throttled body goes on long after this: the line's time is until its head was queued.
        return send(response, context, connection, line: line, note: note)
    }
}

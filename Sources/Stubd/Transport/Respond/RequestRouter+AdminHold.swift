import Foundation
import StubdCore
import StubdEngine

/// An admin long-poll (`AdminHold`: `GET /__stubd/hits/wait`, `streams/wait`), held with the connection
/// suspended as a stub's delay is.
extension RequestRouter {
    func holdAdmin(_ hold: AdminHold, _ context: RequestContext, _ connection: borrowing Connection) -> CallResult {
        write(.held(HeldAnswer(context: context, work: .adminHold(hold, registration: nil), start: { resume in
            // Already so: answer at once.
            guard let id = hold.register({ resume(nil) }) else { return resume(nil) }
            // For `stop()` or a departed client, which cancel it; too late (and not needed) when
            // the waiter has resumed the request already.
            context.handle(.holdWillFinish(.adminHold(hold, registration: id)))
            Suspensions.schedule(after: UInt64(hold.timeout * 1e9)) {
                if hold.cancel(id) { resume(nil) }
            }
        }, now: { [self] connection in
            finishHold(hold, context, connection)
        })), connection)
    }

    func finishHold(_ hold: AdminHold, _ context: RequestContext, _ connection: borrowing Connection) -> CallResult {
        let line = context.logLine ?? RequestLogLine(method: "GET", path: "/__stubd/", status: 0, session: "",
                                                     latencyMicroseconds: 0, isAdmin: true)
        return send(.generated(hold.answer()), context, connection, line: line)
    }
}

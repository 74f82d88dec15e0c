import CMicroHTTPD
import Foundation
import StubdCore
import Synchronization

/// `GET /__stubd/hits/wait`: a long-poll for hits, held with the connection suspended.
extension RequestRouter {
    func waitForHits(_ context: RequestContext, _ connection: borrowing Connection, session: SessionState,
                             query: RouteQuery, count: Int, timeout: Double) -> MHD_Result {
        context.pending = .hitsWait(session: session, query: query, count: count, waiterID: nil)
        return write(.held(HeldAnswer(context: context, start: { [self] resume in
            let id = admin.waitForHits(session: session, query: query, count: count) { resume() }
            // Already reached: answer at once.
            guard let id else { return resume() }
            context.pending = .hitsWait(session: session, query: query, count: count, waiterID: id)
            schedule(after: UInt64(timeout * 1e9)) { [self] in
                if admin.cancelWait(session: session, id: id) { resume() }
            }
        }, now: { [self] connection in
            context.pending = nil
            return finishWait(context, connection, session: session, query: query, count: count)
        })), connection)
    }

    func finishWait(_ context: RequestContext, _ connection: borrowing Connection, session: SessionState,
                    query: RouteQuery, count: Int) -> MHD_Result {
        let line = context.logLine ?? RequestLogLine(method: "GET", path: "/__stubd/hits/wait", status: 0, session: session.id,
                                                     latencyMicroseconds: 0, isAdmin: true)
        return send(.generated(admin.hitsWaitResult(session: session, query: query, count: count)), context, connection, line: line)
    }
}

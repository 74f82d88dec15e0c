import HTTPTypes

import StubdCore
import StubdProtocol

/// `/__stubd/...`: the admin API and the dashboard, behind `AdminAccess`; passes on every other request.
struct AdminResponder: Responder {
    let admin: AdminEndpoints
    let access: AdminAccess

    func respond(to request: inout IncomingRequest) -> Reply? {
        guard let call = request.target.adminCall else { return nil }
        let head = request.head
        if let refusal = access.refusal(method: head.method, call: call, headers: head.headers) {
            return .generated(DashboardPage.isPage(call) ? DashboardPage.secured(refusal) : refusal)
        }
        if DashboardPage.isPage(call) { return .generated(DashboardPage.answer(method: head.method, call: call)) }
        let endpoint = AdminEndpoint(method: head.method, call: call)
        if case .events? = endpoint {
            guard head.method == .get else {
                return .generated(.problem(405, title: "Method not allowed", detail: "/__stubd/events takes GET (an EventSource)",
                                           headers: [.allow: "GET"]))
            }
            // `?all=1`: every session's changes; otherwise the session's own (and "*").
            let all = head.query.contains { $0.name == "all" && $0.value != "0" }
            return .now(DashboardEvents.response(feed: admin.engine.changes, session: all ? nil : request.target.session))
        }
        let session = admin.sessions.session(request.target.session)
        request.logLine.session = session.id
        let reply = admin.answer(method: head.method, call: call, query: head.query, body: head.body, session: session)
        if head.method != .get, head.method != .head {
            // Resetting the default session drops every named one.
            let resetsAll: Bool = if case .reset? = endpoint { session.id.isEmpty } else { false }
            admin.engine.changes.note(resetsAll ? "*" : session.id)
        }
        switch reply {
        case .response(let generated):
            return .generated(generated)
        case let .waitForHits(session, query, count, timeout):
            return .waitForHits(session: session, query: query, count: count, timeout: timeout)
        case .hold(let hold):
            return .hold(hold)
        }
    }
}

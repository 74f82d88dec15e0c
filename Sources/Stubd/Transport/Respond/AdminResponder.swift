import HTTPTypes

import StubdCore
import StubdEngine
import StubdProtocol

/// `/__stubd/...`: the admin API and the dashboard, behind `AdminAccess`; passes on every other request.
/// The call is parsed here, once, into an `AdminEndpoint`: access, the dashboard and `AdminEndpoints`
/// take it typed.
struct AdminResponder: Responder {
    let admin: AdminEndpoints
    let access: AdminAccess

    func respond(to request: inout IncomingRequest) -> Reply? {
        guard let call = request.target.adminCall else { return nil }
        let head = request.head
        let endpoint = AdminEndpoint(method: head.method, call: call)
        if let refusal = access.refusal(method: head.method, endpoint: endpoint, call: call, headers: head.headers) {
            if case .dashboard? = endpoint { return .generated(DashboardPage.secured(refusal)) }
            return .generated(refusal)
        }
        switch endpoint {
        case .dashboard(let file)?:
            return .generated(DashboardPage.answer(method: head.method, file: file, call: call))
        case .events?:
            guard head.method == .get else {
                return .generated(.problem(405, title: "Method not allowed", detail: "/__stubd/events takes GET (an EventSource)",
                                           headers: [.allow: "GET"]))
            }
            // `?all=1`: every session's changes; otherwise the session's own (and "*").
            let all = head.query.contains { $0.name == "all" && $0.value != "0" }
            return .now(DashboardEvents.response(feed: admin.engine.changes, session: all ? nil : request.target.session))
        default:
            break
        }
        let session = admin.sessions.session(request.target.session)
        request.logLine.session = session.id
        let reply: AdminReply = if let endpoint {
            admin.answer(endpoint, query: head.query, body: head.body, session: session)
        } else {
            .response(AdminEndpoints.noSuchCall(method: head.method, call: call))
        }
        if head.method != .get, head.method != .head {
            // Resetting the default session drops every named one.
            let resetsAll: Bool = if case .reset? = endpoint { session.id.isEmpty } else { false }
            admin.engine.changes.note(resetsAll ? "*" : session.id)
        }
        switch reply {
        case .response(let generated):
            return .generated(generated)
        case .hold(let hold):
            return .hold(hold)
        }
    }
}

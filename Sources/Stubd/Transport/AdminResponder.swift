import StubdCore

/// `/__stubd/...`: the admin API, behind `AdminAccess`; passes on every other request.
struct AdminResponder: Responder {
    let engine: StubEngine
    let access: AdminAccess

    func respond(to request: inout IncomingRequest) -> Reply? {
        guard let call = request.target.adminCall else { return nil }
        let head = request.head
        if let refusal = access.refusal(method: head.method, call: call, headers: head.headers) {
            return .generated(refusal)
        }
        let session = engine.session(request.target.session)
        request.logLine.session = session.id
        switch engine.admin(method: head.method, call: call, query: head.query, body: head.body, session: session) {
        case .response(let generated):
            return .generated(generated)
        case let .waitForHits(session, query, count, timeout):
            return .waitForHits(session: session, query: query, count: count, timeout: timeout)
        }
    }
}

import HTTPTypes
import StubdCore
import StubdEngine

/// One link of the chain a request goes through (`ResponderChain`): it answers the request, or
/// passes it on with nil. What it answers is a `Reply`, a value: queueing it, holding the
/// connection for a delay and writing the log line are the router's, each in one place.
protocol Responder {
    func respond(to request: inout IncomingRequest) -> Reply?
}

/// The responders a request goes through, in order: the admin API, the stubs, the real API.
/// Which links there are is fixed when the server starts: `serve` has no forwarding, `serve --proxy`
/// forwards what no stub answers, `stubd record` forwards everything. Concrete links rather than
/// an array of existentials, so the hot path dispatches statically.
struct ResponderChain {
    let admin: AdminResponder
    let stubs: StubResponder?
    let forwarding: ForwardingResponder?

    func respond(to request: inout IncomingRequest) -> Reply {
        if let reply = admin.respond(to: &request) { return reply }
        if let stubs, let reply = stubs.respond(to: &request) { return reply }
        if let forwarding, let reply = forwarding.respond(to: &request) { return reply }
        // Unreachable: either the stubs answer everything or forwarding takes what they leave.
        return .generated(.problem(500, title: "No responder", detail: "no responder answered \(request.head.method) \(request.head.path)"))
    }
}

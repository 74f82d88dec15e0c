import StubdCore

/// The Stubs folder's answer. Under `serve --proxy` a miss passes on to forwarding (matched once:
/// nothing is counted for it); otherwise a miss is the engine's 404.
struct StubResponder: Responder {
    let engine: StubEngine
    /// True under `serve --proxy`: what no stub answers goes on to the next responder.
    let passesMisses: Bool
    /// `serve --spec --validate requests=strict`: a request that breaks its operation gets 422, not the stub.
    var strictContract: APIContract?

    func respond(to request: inout IncomingRequest) -> Reply? {
        if let contract = strictContract, let violations = contract.violations(of: request.head), !violations.isEmpty {
            return .generated(.requestViolations(violations, specName: contract.specName))
        }
        let session = engine.session(request.target.session)
        if passesMisses {
            return engine.respondIfStubbed(to: request.head, in: session).map(Reply.stub)
        }
        return .stub(engine.respond(to: request.head, in: session))
    }
}

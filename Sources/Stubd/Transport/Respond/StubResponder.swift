import StubdCore
import StubdEngine

/// The Stubs folder's answer. Under `serve --proxy` a miss passes on to forwarding (matched once:
/// nothing is counted for it); otherwise a miss is the engine's 404.
struct StubResponder: Responder {
    let engine: StubEngine
    /// True under `serve --proxy`: what no stub answers goes on to the next responder.
    let passesMisses: Bool
    /// `serve --spec`: the specs requests are held to (each request to the one that declares its
    /// operation), and what comes of a request that breaks it.
    var contracts: ContractSet?
    var validation: RequestValidationMode = .report

    func respond(to request: inout IncomingRequest) -> Reply? {
        // The spec that declares the request's operation (with one spec, that spec, without a lookup);
        // nil with none, or when no spec declares it: then it is judged as a path no spec has.
        let contract = contracts?.contract(for: request.head)
        let reply = answer(&request, contract)
        // stubd's own answers (the 404, strict mode's refusals) in the shape the spec declares for
        // their status, so a client generated from the spec decodes them as documented (issue 44).
        guard let contract, let reply else { return reply }
        switch reply {
        case .now(.generated(let generated)): return .generated(contract.shapedAsDeclared(generated, for: request.head))
        case .stub(let outcome): return .stub(outcome.shapedAsDeclared(by: contract, for: request.head))
        default: return reply
        }
    }

    private func answer(_ request: inout IncomingRequest, _ contract: APIContract?) -> Reply? {
        var problems: [String]?
        if let contract, validation != .off, let violations = contract.violations(of: request.head), !violations.isEmpty {
            // A note (a body stubd cannot check) refuses nothing, even in strict mode: it is only said.
            if validation == .strict, violations.contains(where: { $0.refusal != nil }) {
                return .generated(.requestViolations(violations, specName: contract.specName))
            }
            problems = violations.map { "\($0.location): \($0.message)" }
        }
        return engine.answer(request.head, session: request.target.session, catalog: request.catalog, passingMisses: passesMisses,
                             contractProblems: problems).map(Reply.stub)
    }
}

import StubdCore
import StubdEngine

/// The Stubs folder's answer, held to the specs (`ContractedAnswer`, as every front asks it). Under
/// `serve --proxy` a miss passes on to forwarding (matched once: nothing is counted for it);
/// otherwise a miss is the engine's 404.
struct StubResponder: Responder {
    let engine: StubEngine
    /// True under `serve --proxy`: what no stub answers goes on to the next responder.
    let passesMisses: Bool
    /// `serve --spec`: the specs requests are held to (each request to the one that declares its
    /// operation), and what comes of a request that breaks it.
    var contracts: ContractSet?
    var validation: RequestValidationMode = .report

    func respond(to request: inout IncomingRequest) -> Reply? {
        switch ContractedAnswer.answer(request.head, session: request.target.session, engine: engine, contracts: contracts,
                                       checked: validation != .off, strict: validation == .strict, catalog: request.catalog,
                                       passingMisses: passesMisses) {
        case .answer(let outcome): return .stub(outcome)
        case .refused(let refusal): return .generated(refusal)
        case .passed: return nil
        }
    }
}

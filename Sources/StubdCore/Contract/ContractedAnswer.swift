package import StubdEngine

/// The engine's answer to a request held to the specs (`serve --spec`): what every front asks, the
/// libmicrohttpd one (`StubResponder`) and the in-process one (`InProcessFront`), so both judge a
/// request alike. The spec that declares the request's operation judges it (with one spec, that
/// spec, without a lookup); with none, or when no spec declares it, it is judged as a path no spec has.
package enum ContractedAnswer {
    /// What came of the request.
    package enum Verdict {
        /// The engine's answer (the stub's, or its 404), in the shape the spec declares.
        case answer(Outcome)
        /// Strict mode: the request breaks its operation, and gets this instead of the stub.
        case refused(GeneratedResponse)
        /// Nothing matched and misses pass on (`serve --proxy`).
        case passed
    }

    /// `strict`: a request that breaks its operation is refused (422, 401, 415); `checked` false
    /// (`--validate requests=off`): requests are not held to the spec at all.
    package static func answer(_ head: RequestHead, session: String, engine: StubEngine, contracts: ContractSet?,
                               checked: Bool, strict: Bool, catalog: StubCatalog? = nil, passingMisses: Bool = false) -> Verdict {
        let contract = contracts?.contract(for: head)
        var problems: [String]?
        if let contract, checked, let violations = contract.violations(of: head), !violations.isEmpty {
            // A note (a body stubd cannot check) refuses nothing, even in strict mode: it is only said.
            if strict, violations.contains(where: { $0.refusal != nil }) {
                // stubd's own answers in the shape the spec declares for their status, so a client
                // generated from the spec decodes them as documented (issue 44).
                return .refused(contract.shapedAsDeclared(.requestViolations(violations, specName: contract.specName), for: head))
            }
            problems = violations.map { "\($0.location): \($0.message)" }
        }
        guard let outcome = engine.answer(head, session: session, catalog: catalog, passingMisses: passingMisses,
                                          contractProblems: problems) else { return .passed }
        guard let contract else { return .answer(outcome) }
        return .answer(outcome.shapedAsDeclared(by: contract, for: head))
    }
}

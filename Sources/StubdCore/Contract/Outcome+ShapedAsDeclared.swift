package import StubdEngine

extension Outcome {
    /// With a spec: stubd's own answer (no stub matched, a quota refused) in the shape the spec
    /// declares for its status (`APIContract.shapedAsDeclared`); a stub's answer is left as written.
    package func shapedAsDeclared(by contract: APIContract, for request: RequestHead) -> Outcome {
        guard case .generated(let generated) = answer else { return self }
        return Outcome(answer: .generated(contract.shapedAsDeclared(generated, for: request)), route: route, quota: quota,
                       notes: notes, deferred: deferred, contractProblems: contractProblems)
    }
}

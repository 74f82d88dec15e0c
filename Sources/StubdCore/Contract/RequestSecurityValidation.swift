import StubdEngine

extension APIContract {
    /// The credential an operation's `security` (or the root's) asks for, when the request carries
    /// none of its alternatives: one violation naming each, refused with 401. Only presence is
    /// checked, and the message never holds a value the request sent.
    func securityViolations(of request: RequestHead, for operation: ContractOperation) -> [RequestViolation] {
        let alternatives = operation.security
        // `security: []` and an empty requirement (`- {}`) ask for nothing.
        guard !alternatives.isEmpty, !alternatives.contains(where: { $0.allSatisfy { $0.isPresent(in: request) } }) else { return [] }
        let described = alternatives.map { requirement in
            requirement.map { "'\($0.name)' (\($0.placeDescription))" }.joined(separator: " together with ")
        }
        let missing = alternatives[0].first { !$0.isPresent(in: request) } ?? alternatives[0][0]
        let message = alternatives.count == 1
            ? "\(operation.signature) requires the security scheme \(described[0]), and the request has none"
            : "\(operation.signature) requires one of the security schemes \(described.joined(separator: "; or ")), and the request has none"
        var challenges: [String] = []
        for scheme in alternatives.joined() {
            if let challenge = scheme.challenge(realm: specName), !challenges.contains(challenge) { challenges.append(challenge) }
        }
        return [RequestViolation(location: missing.location, code: "security", message: message, refusal: .unauthenticated(challenges: challenges))]
    }
}

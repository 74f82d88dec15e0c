extension PathPattern {
    /// No parameter and no `**`: a request that reaches the route in the tree matches it.
    var isLiteral: Bool {
        segments.allSatisfy { if case .literal = $0 { true } else { false } }
    }
}

import StubdEngine

/// What searching a string for a schema's `pattern` found.
enum PatternVerdict: Sendable, Equatable {
    case match
    case noMatch
    /// The search gave up within its budget: neither verdict would be true to say.
    case tooCostly
}

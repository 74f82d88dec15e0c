import StubdEngine

/// The zero-width assertions of a pattern without flags: `^` and `$` hold only at the ends of the
/// whole string (no multiline mode), `\b` and `\B` between a word character and another.
enum PatternAssertion: Sendable, Equatable {
    case start, end, wordBoundary, notWordBoundary

    /// Whether it holds between `previous` and `next` (nil: an end of the string).
    func holds(previous: UInt32?, next: UInt32?) -> Bool {
        switch self {
        case .start: return previous == nil
        case .end: return next == nil
        case .wordBoundary, .notWordBoundary:
            let before = previous.map(ScalarSet.word.contains) ?? false
            let after = next.map(ScalarSet.word.contains) ?? false
            return (before != after) == (self == .wordBoundary)
        }
    }
}

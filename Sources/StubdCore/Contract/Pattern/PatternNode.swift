import StubdEngine

/// A parsed ECMA-262 regular expression, as JSON Schema's `pattern` is written.
indirect enum PatternNode: Sendable, Equatable {
    case empty
    case set(ScalarSet)
    case concatenation([PatternNode])
    case alternation([PatternNode])
    /// `(…)` with its capture number (from 1), or `(?:…)` with none.
    case group(PatternNode, capture: Int?)
    /// `max` nil: no upper bound. Lazy and greedy forms match the same strings; `greedy` only
    /// orders the backtracker's tries.
    case repetition(PatternNode, min: Int, max: Int?, greedy: Bool)
    case assertion(PatternAssertion)
    /// `\1`, `\k<name>`: only a backtracker can follow one.
    case backreference(Int)
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`.
    case lookaround(PatternNode, behind: Bool, negated: Bool)

    /// Whether matching needs a backtracker: back-references and lookarounds are not regular.
    var needsBacktracking: Bool {
        switch self {
        case .empty, .set, .assertion: return false
        case .backreference, .lookaround: return true
        case .concatenation(let nodes), .alternation(let nodes): return nodes.contains { $0.needsBacktracking }
        case .group(let node, _), .repetition(let node, _, _, _): return node.needsBacktracking
        }
    }
}

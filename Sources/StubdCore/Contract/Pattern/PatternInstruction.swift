import StubdEngine

/// One step of a compiled pattern (`PatternProgram`), for the Pike VM and the backtracker alike.
enum PatternInstruction: Sendable {
    /// Consume one scalar of the program's set at this index.
    case consume(Int)
    /// Go on at both; the backtracker tries the first first.
    case split(Int, Int)
    case jump(Int)
    case assert(PatternAssertion)
    /// Record the position in a capture slot (group n: slots 2n and 2n + 1).
    case save(Int)
    /// Record the position where a `*` or `+` iteration starts, in the loop's register …
    case loopEnter(Int)
    /// … and refuse an iteration that consumed nothing there: ECMA-262 ends the loop instead.
    case loopCheck(Int)
    case backreference(Int)
    /// Run the program's lookaround at this index here.
    case look(Int, behind: Bool, negated: Bool)
    case match
}

import StubdEngine

/// A schema's `pattern` (or a `patternProperties` name), compiled once with its schema: searched
/// by the Pike VM, in time linear in the input, unless it needs back-references or lookarounds,
/// which the backtracker tries under a step budget. Either way a search ends soon, and says
/// `tooCostly` rather than guess when it could not decide.
struct SchemaPattern: Sendable {
    let source: String
    private let program: PatternProgram
    private let captureCount: Int
    private let backtracks: Bool

    /// Pike VM thread steps one search may take: a few hundred milliseconds at worst.
    static let linearBudget = 50_000_000
    /// Backtracker steps one search may take.
    static let backtrackingBudget = 2_000_000

    init(_ source: String) throws(PatternSyntaxError) {
        self.source = source
        let (node, captures) = try PatternParser.parse(source)
        program = try PatternProgram(node)
        captureCount = captures
        backtracks = node.needsBacktracking
    }

    func search(_ string: String) -> PatternVerdict {
        let found: Bool?
        if backtracks {
            var backtracker = PatternBacktracker(program: program, captureCount: captureCount, budget: SchemaPattern.backtrackingBudget)
            found = backtracker.search(string.unicodeScalars.map(\.value))
        } else {
            found = PikeVM(program: program, budget: SchemaPattern.linearBudget).search(string.unicodeScalars)
        }
        switch found {
        case true?: return .match
        case false?: return .noMatch
        case nil: return .tooCostly
        }
    }

    /// Why a search said `tooCostly`, for the violation.
    var costExplanation: String {
        backtracks
            ? "the pattern \(source) needs backtracking (a back-reference or lookaround), and \(SchemaPattern.backtrackingBudget) steps did not decide it for this input"
            : "the pattern \(source) took more than \(SchemaPattern.linearBudget) steps on this input"
    }
}

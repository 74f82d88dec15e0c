/// Every problem found while loading a Stubs directory, reported at once.
public struct CatalogLoadError: Error, Sendable, CustomStringConvertible {
    /// The Stubs directory's path.
    public let root: String
    /// All of them, not only the first.
    public let problems: [LoadProblem]

    package init(root: String, problems: [LoadProblem]) {
        self.root = root
        self.problems = problems
    }

    public var description: String {
        let noun = problems.count == 1 ? "problem" : "problems"
        return "\(root): \(problems.count) \(noun)\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}

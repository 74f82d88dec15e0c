/// One thing wrong with a Stubs directory, with where it is and what to do about it.
public struct LoadProblem: Sendable, Hashable, CustomStringConvertible {
    /// Path relative to the stubs root (`api/conditions.json`, `stubd.yml`).
    public let file: String
    /// 1-based, when the problem is at a place in the file.
    public let line: Int?
    public let column: Int?
    /// What was wrong.
    public let message: String
    /// What would fix it, when there is something better to say than the message.
    public let hint: String?

    package init(file: String, line: Int? = nil, column: Int? = nil, message: String, hint: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// `file:line:column`, as far as known.
    public var location: String {
        switch (line, column) {
        case let (l?, c?): return "\(file):\(l):\(c)"
        case let (l?, nil): return "\(file):\(l)"
        default: return file
        }
    }

    public var description: String {
        hint.map { "\(location): \(message) (\($0))" } ?? "\(location): \(message)"
    }
}

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

/// Collects problems while a loader carries on, so the user sees all of them in one run.
struct ProblemList {
    private(set) var items: [LoadProblem] = []
    var isEmpty: Bool { items.isEmpty }
    mutating func add(_ problem: LoadProblem) { items.append(problem) }
    mutating func add(_ file: String, line: Int? = nil, column: Int? = nil, _ message: String, hint: String? = nil) {
        items.append(LoadProblem(file: file, line: line, column: column, message: message, hint: hint))
    }
}

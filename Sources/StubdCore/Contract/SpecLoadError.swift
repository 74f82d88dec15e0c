package import StubdEngine

/// Why a spec could not be read: every problem found, each placed in the spec's files.
package struct SpecLoadError: Error, Sendable, CustomStringConvertible {
    package let problems: [LoadProblem]

    package init(problems: [LoadProblem]) {
        self.problems = problems
    }

    package var description: String {
        let noun = problems.count == 1 ? "problem" : "problems"
        return "\(problems.count) \(noun) in the spec:\n" + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}

/// Collects problems while a loader carries on, so the user sees all of them in one run.
package struct ProblemList {
    package private(set) var items: [LoadProblem] = []
    package var isEmpty: Bool { items.isEmpty }
    mutating func add(_ problem: LoadProblem) { items.append(problem) }
    mutating func add(_ file: String, line: Int? = nil, column: Int? = nil, _ message: String, hint: String? = nil) {
        items.append(LoadProblem(file: file, line: line, column: column, message: message, hint: hint))
    }
}

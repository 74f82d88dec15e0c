import StubdEngine

/// Why a schema's `pattern` is not an ECMA-262 regular expression, with where in it.
struct PatternSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The scalar offset the problem was found at.
    let offset: Int
    let problem: String

    var description: String { "\(problem) at character \(offset + 1)" }
}

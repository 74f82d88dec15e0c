import StubdEngine

/// Why `stubd openapi import` wrote nothing: each problem a sentence saying what to do.
package struct OpenAPIImportError: Error, Sendable, CustomStringConvertible {
    package let problems: [String]

    package init(_ problems: [String]) {
        self.problems = problems
    }

    package var description: String { problems.joined(separator: "\n") }
}

import StubdEngine

/// Why a file cannot be imported (a HAR, WireMock mappings, a Postman collection). Nothing was
/// written: each problem names the file and, where it lies inside it, its JSON pointer
/// (`/log/entries/3/response/content/text`, `/mappings/2/response/bodyFileName`), and what to do.
package struct ImportError: Error, Sendable, CustomStringConvertible {
    package let problems: [String]
    package init(_ problems: [String]) { self.problems = problems }
    package init(_ problem: String) { self.problems = [problem] }
    package var description: String { problems.joined(separator: "\n") }

    /// Every problem found (the first 20, then a count), so one run shows what to fix.
    static func all(_ problems: [String]) -> ImportError {
        ImportError(Array(problems.prefix(20)) + (problems.count > 20 ? ["… and \(problems.count - 20) more"] : []) + ["nothing written"])
    }
}

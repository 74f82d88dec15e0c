/// Why a HAR cannot be imported. Nothing was written: each problem names the file and, where it
/// lies inside an entry, its JSON pointer (`/log/entries/3/response/content/text`), and what to do.
package struct HARImportError: Error, Sendable, CustomStringConvertible {
    package let problems: [String]
    package init(_ problems: [String]) { self.problems = problems }
    package init(_ problem: String) { self.problems = [problem] }
    package var description: String { problems.joined(separator: "\n") }
}

import Foundation
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// `record --help` lists the names the recorder redacts, in paragraphs that wrap cleanly, and
/// docs/recording-and-drift.md lists the same (issue 45 item 4). No server started; split from
/// RecordOnlyStatusesTests, which records through one.
@Suite struct RecordHelpTests {
    @Test func recordHelpListsEveryRedactedNameAndWrapsWholeParagraphs() throws {
        let help = try run(stubdBinary.path, ["record", "--help"]).output
        for name in SecretNames.headerNames + SecretNames.parameterNames + ["Set-Cookie", "--only"] {
            #expect(help.contains(name), "record --help does not name \(name):\n\(help)")
        }
        // The discussion, between OVERVIEW and USAGE: a line cut short mid-paragraph means a hard
        // line break in the source, which argument-parser keeps after wrapping.
        let discussion = help.components(separatedBy: "USAGE:")[0].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (line, next) in zip(discussion, discussion.dropFirst()) where !line.isEmpty && !next.isEmpty {
            #expect(line.count > 55, "a ragged line in record --help: '\(line)' then '\(next)'")
        }
    }

    /// docs/recording-and-drift.md lists the same names the recorder redacts.
    @Test func theRecordingDocsNameEveryRedactedHeaderAndParameter() throws {
        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/recording-and-drift.md"), encoding: .utf8)
        let paragraph = docs.components(separatedBy: "**Secrets never reach the folder.**")[1].components(separatedBy: "\n\n")[0]
        for name in SecretNames.headerNames + SecretNames.parameterNames {
            #expect(paragraph.contains("`\(name)`"), "docs/recording-and-drift.md does not name `\(name)`")
        }
    }
}

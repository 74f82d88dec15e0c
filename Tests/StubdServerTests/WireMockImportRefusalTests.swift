import Foundation
import StubdTestSupport
import Testing

/// `stubd import wiremock` on mappings it cannot take: nothing written, every problem named. No
/// server started; split from WireMockImportTests, which serves what the import wrote.
@Suite struct WireMockImportRefusalTests {
    @Test func badMappingsWriteNothingAndNameEveryProblem() throws {
        let dir = try WireMockImportTests.freshFolder()
        // A bodyFileName reaching out of __files/ and a base64Body that is not: both named, nothing written.
        let traversal = try WireMockImportTests.importMappings(WireMockImportTests.fixtures.appendingPathComponent("traversal"), dir)
        #expect(traversal.status == 1)
        #expect(traversal.error.contains("mappings/passwd.json:/response/bodyFileName: '../../etc/passwd' would be read from outside __files/"), "\(traversal.error)")
        #expect(traversal.error.contains("mappings/ok.json:/response/base64Body: not base64"), "\(traversal.error)")
        #expect(traversal.error.contains("nothing written"))
        #expect(try WireMockImportTests.nothingIn(dir))

        // WireMock's own sample.json has // comments, which JSON has not: the file, line and column.
        let comments = try WireMockImportTests.importMappings(WireMockImportTests.fixtures.appendingPathComponent("sample-with-comments.json"), dir)
        #expect(comments.status == 1 && comments.error.contains("sample-with-comments.json:4:32: not JSON"), "\(comments.error)")

        let scratch = try TempStubs([:]).url
        // A HAR is not a mapping; a truncated mapping file; a file over --max-size.
        let har = scratch.appendingPathComponent("capture.json")
        try Data(contentsOf: HARImportTests.forward).write(to: har)
        let unknown = try WireMockImportTests.importMappings(har, dir)
        #expect(unknown.status == 1 && unknown.error.contains("capture.json: not a WireMock mapping"), "\(unknown.error)")
        let truncated = scratch.appendingPathComponent("truncated.json")
        try Data(#"{"request": {"url": "/a"}, "response": {"status": 2"#.utf8).write(to: truncated)
        let cut = try WireMockImportTests.importMappings(truncated, dir)
        #expect(cut.status == 1 && cut.error.contains("truncated.json:1:") && cut.error.contains("is the file truncated?"), "\(cut.error)")
        let big = scratch.appendingPathComponent("big.json")
        try Data((#"{"request": {"url": "/big"}, "response": {"body": ""# + String(repeating: "x", count: 1_100_000) + #""}}"#).utf8).write(to: big)
        let oversize = try WireMockImportTests.importMappings(big, dir, ["--max-size", "1"])
        #expect(oversize.status == 1 && oversize.error.contains("big.json is 1 MiB, over the 1 MiB --max-size"), "\(oversize.error)")
        #expect(try WireMockImportTests.nothingIn(dir))
    }
}

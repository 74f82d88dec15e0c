import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// What stubd writes or says must be what it is (issue 38, item 17): a `.json` file holds JSON, an
/// imported folder passes the check it will be held to, a problem is listed once, and a report that
/// was asked for and not written fails the run.
/// `check` and import alone, which start no server: TruthfulCheckOutputTests.
@Suite struct TruthfulOutputTests {
    /// `Zürich` in Latin-1: one byte 0xFC where UTF-8 has two.
    static let latin1JSON = Data(#"{"city": "Z"#.utf8) + Data([0xFC]) + Data(#"rich"}"#.utf8)

    /// Before: recorded as `weather.json`, which replay served as JSON and `check` passed.
    @Test func aRecordedAnswerThatIsNotUTF8IsNotWrittenAsJSON() async throws {
        let upstream = try RawUpstream(answers: [
            "/weather": RawUpstream.response(headers: ["Content-Type: application/json"], body: Self.latin1JSON),
        ])
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder)
        try await withServer(folder, options: options) { (recorder: StubServer) async throws in
            #expect(try await get(recorder.baseURL, "/weather").status == 200)
        }
        let written = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        #expect(!written.contains { $0.hasSuffix(".json") }, "\(written)")
        #expect(written.contains { $0.hasSuffix(".bin") }, "\(written)")
        // The bytes are kept as they came.
        let file = try #require(written.first { $0.hasSuffix(".bin") })
        #expect(try Data(contentsOf: folder.appendingPathComponent(file)) == Self.latin1JSON)
        #expect(try run(stubdBinary.path, ["check", "--stubs", folder.path]).status == 0)
    }

    /// Schemas the sampler's first draw breaks: `oneOf` of overlapping alternatives, an object
    /// that needs more members than it lists, an `allOf` no string satisfies.
    static let hardSpec = OpenAPISpec.document(
        OpenAPISpec.get("/a",
            OpenAPISpec.json(schema: """
                type: object
                required: [d, y]
                properties:
                  d: {type: object, minProperties: 2, additionalProperties: false, properties: {k: {type: string}}}
                  y: {allOf: [{minLength: 5}, {maxLength: 3}]}
                """),
            OpenAPISpec.json("404", description: "missing", schema: "{type: object, required: [status], properties: {status: {type: integer, enum: [404]}}}")))

    /// Before: "coverage not written" in the log, and exit 0, so CI went on without the report.
    @Test func serveExitsNonZeroWhenTheCoverageReportCannotBeWritten() async throws {
        let stubs = try TempStubs(["a.json": "{}"])
        let folder = try TempStubs([:]).url
        let out = folder.appendingPathComponent("coverage.json")
        let serve = try ServeProcess(["--stubs", stubs.url.path, "--coverage-out", out.path])
        #expect(try await get(serve.baseURL, "/a").status == 200)
        try FileManager.default.removeItem(at: folder)
        kill(serve.process.processIdentifier, SIGTERM)
        serve.process.waitUntilExit()
        #expect(serve.process.terminationStatus != 0, "\(serve.log)")
        #expect(serve.log.contains("coverage not written: cannot open \(out.path)"), "\(serve.log)")
    }
}

import Foundation
import StubdTestSupport
import Testing

/// `stubd export har`: a recording as a HAR, which imported again gives the same client the same answers.
@Suite struct HARExportTests {
    /// `stubd record` in front of Fixtures/HAR/upstream.py, driven by client.sh, then stopped.
    static func record(into dir: URL) throws {
        let upstream = try PythonUpstream(script: """
            import runpy, sys
            sys.argv = ["upstream.py", "0"]
            runpy.run_path(\(HARImportTests.fixtures.appendingPathComponent("upstream.py").path.debugDescription), run_name="__main__")
            """)
        let recorder = Process()
        recorder.executableURL = stubdBinary
        recorder.arguments = ["record", "--target", upstream.url.absoluteString, "--stubs", dir.path, "--port", "0"]
        // `stubd record` refuses to run under CI=true unless --allow-ci (a suite must not record by
        // accident); this test records on purpose, so its recorder does not inherit CI.
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        recorder.environment = environment
        let out = Pipe()
        recorder.standardOutput = out
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        defer { kill(recorder.processIdentifier, SIGKILL); recorder.waitUntilExit() }
        let first = String(decoding: out.fileHandleForReading.firstLine(startingWith: "stubd recording on", thenDrainInto: { _ in }), as: UTF8.self)
        let base = first.split(separator: " ").first { $0.hasPrefix("http://") }.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ":,"))) } ?? ""
        let statuses = try run("/bin/sh", [HARImportTests.fixtures.appendingPathComponent("client.sh").path, base],
                               environment: ["PATH": "/usr/bin:/bin", "CURL_PROXY": ""])
        #expect(statuses.output.split(separator: "\n") == HARImportTests.clientStatuses, "through stubd record: \(statuses.output)")
    }

    @Test func aRecordingExportedAndImportedAgainGivesTheClientTheSameAnswers() throws {
        let recorded = try HARImportTests.freshFolder()
        try Self.record(into: recorded)
        let har = recorded.deletingLastPathComponent().appendingPathComponent("session.har")
        let exported = try run(stubdBinary.path, ["export", "har", "--stubs", recorded.path, "-o", har.path])
        #expect(exported.status == 0, "\(exported.error)")
        #expect(exported.error.contains("12 entries from 11 routes"), "\(exported.error)")
        let entries = try HARImportTests.entries(har)
        #expect(entries.filter { (($0["request"] as! [String: Any])["url"] as! String).hasSuffix("/flaky") }
                    .map { ($0["response"] as! [String: Any])["status"] as! Int } == [503, 200], "the sequence, step by step")

        let imported = try HARImportTests.freshFolder()
        let result = try HARImportTests.importHAR(har, imported)
        #expect(result.status == 0, "\(result.error)")
        let serve = try ServeProcess(["--stubs", imported.path])
        let statuses = try run("/bin/sh", [HARImportTests.fixtures.appendingPathComponent("client.sh").path, serve.baseURL.absoluteString],
                               environment: ["PATH": "/usr/bin:/bin", "CURL_PROXY": ""])
        #expect(statuses.output.split(separator: "\n") == HARImportTests.clientStatuses, "\(statuses.output)")
        // The bodies too: the recording's files and the re-import's are the same bytes.
        let before = try HARImportTests.contents(recorded), after = try HARImportTests.contents(imported)
        for (path, data) in before where !path.hasPrefix(".") && path != "stubd.recorded.yml" {
            #expect(after[path] == data, "\(path) differs after export and import")
        }
    }
}

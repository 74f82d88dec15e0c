import Foundation
import Stubd
import StubdCore
import StubdEngine
import StubdXCTest
import StubdTestSupport
import XCTest

/// Inside XCTest a broken Stubs folder is reported once, where `startStubServer` was called
/// (issue 14 item 6, issue 24 item 7): the failure lists every problem, and what the test then
/// throws is not reported again by the harness.
final class XCTestReportingTests: XCTestCase {
    private var recorded: [(description: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing { recorded.append((description, lineNumber)) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testABrokenFolderIsReportedOnceAtTheCallSite() async throws {
        let folder = try StartFailureProbe.brokenFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        capturing = true
        let callLine = #line + 2
        do {
            _ = try await startStubServer(stubs: folder)
            capturing = false
            XCTFail("a broken folder started")
        } catch {
            capturing = false
            XCTAssertEqual(recorded.count, 1, "\(recorded)")
            XCTAssertEqual(recorded.first?.line, callLine)
            XCTAssertTrue(recorded.first?.description.contains("broken.json:1:") == true, "\(recorded)")
            XCTAssertTrue(error is XCTSkip, "XCTest records any other error as a second failure: \(error)")
            XCTAssertFalse("\(error)".contains("broken.json"), "the thrown error repeats the problems: \(error)")
        }
    }

    /// The probe below, run by XCTest itself in a process of its own without catching anything:
    /// its output has exactly one error, at the call site, and none at `<EXPR>:0`.
    func testTheHarnessReportsAFailedStartOnce() throws {
        let folder = try StartFailureProbe.brokenFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["StubdServerTests.StartFailureProbe/testStartsAFolder"]
        var environment = ProcessInfo.processInfo.environment
        environment[StartFailureProbe.folderVariable] = folder.path
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errors = output.split(separator: "\n").filter { $0.contains(": error: ") }
        XCTAssertNotEqual(process.terminationStatus, 0, "the probe must fail: \(output)")
        XCTAssertEqual(errors.count, 1, "\(output)")
        XCTAssertTrue(errors.first?.contains("StartFailureProbe.swift:\(StartFailureProbe.callLine): error:") == true, "\(output)")
        XCTAssertTrue(output.contains("  broken.json:1:"), "the failure lists the problem: \(output)")
        XCTAssertFalse(output.contains("<EXPR>"), "\(output)")
    }
}

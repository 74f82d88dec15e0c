import Foundation
import Stubd
import StubdCore
import StubdXCTest
import XCTest

/// Inside XCTest a broken Stubs folder is reported once, where `startStubServer` was called
/// (issue 14, item 6): the failure lists every problem, and the error the test then throws only
/// points back to it, so the harness's own report of that error does not list them again.
final class XCTestReportingTests: XCTestCase {
    private var recorded: [(description: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing { recorded.append((description, lineNumber)) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testABrokenFolderIsReportedOnceAtTheCallSite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"broken": "#.utf8).write(to: folder.appendingPathComponent("broken.json"))

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
            XCTAssertFalse("\(error)".contains("broken.json"), "the thrown error repeats the problems: \(error)")
            let underlying = (error as? StubServerDidNotStart)?.underlying
            XCTAssertTrue(underlying is CatalogLoadError, "the original error is kept: \(String(describing: underlying))")
        }
    }
}

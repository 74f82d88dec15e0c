import Foundation
import StubdXCTest
import XCTest

/// A test written as a user would, with nothing caught: `XCTestReportingTests` runs it in a process
/// of its own on a broken folder and reads what XCTest printed. Run as part of the suite (the
/// variable unset), it is skipped, and says so, rather than passing without doing anything.
final class StartFailureProbe: XCTestCase {
    static let folderVariable = "STUBD_TEST_PROBE_FOLDER"
    static let callLine = 16

    func testStartsAFolder() async throws {
        guard let path = ProcessInfo.processInfo.environment[StartFailureProbe.folderVariable] else { throw XCTSkip("run by XCTestReportingTests in a process of its own") }
        // This call must stay on line `callLine`.
        let stubs = URL(fileURLWithPath: path)
        _ = try await startStubServer(stubs: stubs)
        XCTFail("a broken folder started")
    }

    /// A folder with one broken JSON stub.
    static func brokenFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"broken": "#.utf8).write(to: folder.appendingPathComponent("broken.json"))
        return folder
    }
}

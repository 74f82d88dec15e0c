import Foundation
import StubdClient
import StubdTestSupport
import StubdXCTest
import XCTest

/// `XCTAssertAppReceived` and `XCTAssertAppSent` pass once the stream has what they wait for, and
/// fail once, at the call, saying what there was.
final class StreamAwaitXCTests: XCTestCase {
    private var recorded: [(description: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing { recorded.append((description, lineNumber)) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testTheAssertionsWaitForTheStreamAndFailSayingWhatThereWas() async throws {
        let folder = try TempStubs(StreamAwaitTests.stubs)
        let server = try ServeProcess(["--stubs", folder.url.path])
        let stubd = StubdClient(baseURL: server.baseURL)
        let reader = try StreamAwaitTests.App("/usr/bin/curl", ["-sN", "--max-time", "20", server.baseURL.absoluteString + "/scores"])
        await XCTAssertAppReceived(stubd, "GET /scores", count: 1, within: .seconds(5))

        capturing = true
        let line = #line + 1
        await XCTAssertAppReceived(stubd, "scores", count: 2, within: .milliseconds(100))
        await XCTAssertAppSent(stubd.webSockets("chat"), .containing("hi"), within: .milliseconds(100))
        capturing = false
        let expected = [
            #"Expected 2 events on GET /scores within 0.1 s, but 1 was sent (1 stream open): event: score data: {"home":1}"#,
            #"Expected the app to send text containing "hi" on GET /chat within 0.1 s, but it sent none (no sockets open)"#,
        ]
        XCTAssertEqual(recorded.count, 2, "\(recorded)")
        for (want, got) in zip(expected, recorded) { XCTAssertTrue(got.description.hasSuffix(want), "\(got.description)") }
        XCTAssertEqual(recorded.first?.line, line)
        withExtendedLifetime((server, reader)) {}
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdTestSupport
import StubdXCTest
import XCTest
import StubdClient

/// `XCTAssertScenarioState` and `XCTAssertItemCount` fail once, at the call, saying what the state
/// or the items were; they pass without a word when they match.
final class StateAssertionXCTests: XCTestCase {
    private var recorded: [(description: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing { recorded.append((description, lineNumber)) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAWrongStateOrCountFailsAtTheCallSayingWhatItWas() async throws {
        let server = try await startStubServer(stubs: try ScenarioServerTests.stubs().url)
        _ = try await http(server.baseURL.appendingPathComponent("cart"), method: "POST", body: "{}", headers: ["Content-Type": "application/json"])
        await XCTAssertScenarioState(server, "cart", "has-item")
        await XCTAssertItemCount(server, "notes", 0)

        capturing = true
        let stateLine = #line + 1
        await XCTAssertScenarioState(server, "cart", "Started")
        await XCTAssertItemCount(server, "notes", 2)
        await XCTAssertScenarioState(server, "basket", "Started")
        capturing = false
        XCTAssertEqual(recorded.count, 3, "\(recorded)")
        let expected = [
            "Expected scenario cart in state 'Started', but it is in 'has-item' (its states: Started, has-item, paid)",
            "Expected 2 notes, was 0",
            "Expected scenario basket in state 'Started', but no route names a scenario 'basket' (scenarios: cart)",
        ]
        for (want, got) in zip(expected, recorded) { XCTAssertTrue(got.description.contains(want), "\(got.description)") }
        XCTAssertEqual(recorded.first?.line, stateLine)
    }
}

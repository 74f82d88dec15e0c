import Foundation
import StubdClient
import StubdTestSupport
import StubdXCTest
import XCTest

/// `XCTAssertStubsCovered` fails naming each answer no request reached and how to reach it, and
/// passes once everything not excepted was reached.
final class StubsCoveredAssertionTests: XCTestCase {
    private var recorded: [String] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing { recorded.append(description) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testTheFailureNamesEachUncoveredAnswerAndHowToReachIt() async throws {
        let server = try await startStubServer(stubs: try TempStubs(quotaStubs).url)
        for _ in 0..<11 { _ = try await get(server.baseURL, "/api/KEY/conditions/q/CA/San_Francisco.json") }

        capturing = true
        await XCTAssertStubsCovered(server)
        capturing = false
        XCTAssertEqual(recorded.count, 1, "\(recorded)")
        let message = recorded.first ?? ""
        XCTAssertTrue(message.contains("2 of 5 stub items never reached"), message)
        XCTAssertTrue(message.contains("- no test saw the answer (200) on GET /open.json: send GET /open.json"), message)
        XCTAssertTrue(message.contains("- no test saw the answer after quota `wunderground` was reset by the clock on GET /api/{key}/conditions/q/CA/San_Francisco.json: after its 429, move the clock past the window"), message)
        XCTAssertFalse(message.contains("the 429 of quota"), "the 11th request saw the 429: \(message)")

        recorded = []
        capturing = true
        await XCTAssertStubsCovered(server, except: ["GET /open.json", "GET /api/{key}/conditions/q/CA/San_Francisco.json: quota wunderground reset-by-clock"])
        await XCTAssertStubsCovered(server, except: ["GET /open.json", "GET /api/{key}/conditions/q/CA/San_Francisco.json: quota wunderground reset-by-clock", "GET /gone"])
        capturing = false
        XCTAssertEqual(recorded.count, 1, "\(recorded)")
        XCTAssertTrue(recorded.first?.contains("except: names no route or item: 'GET /gone'") == true, "\(recorded)")
    }
}

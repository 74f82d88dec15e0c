import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// `PUT /__stubd/prefer` (`StubControl.prefer`) refusing what it cannot take, driven with no socket
/// (`EngineHarness`; this ran through a real server before issue 59). SessionPreferTests has the
/// preference choosing the answer, through the engine too.
@Suite struct SessionPreferAdminTests {
    static let stubs = [
        "stubd.yml": """
        routes:
          - request: { method: GET, path: "/weather/{city}" }
            response: { status: 200, json: { temp: 21.5 } }
          - request: { method: GET, path: "/weather/{city}", headers: { Prefer: "code=429" } }
            response: { status: 429, headers: { Retry-After: "30" }, json: { message: slow down } }

        """,
    ]

    /// A preference that is no string, or an empty one, is a 400 saying what to send.
    @Test func aBadPreferenceIsA400SayingWhatToSend() throws {
        let harness = try EngineHarness(TempStubs(Self.stubs))
        let r = harness.admin(.put, "prefer", body: #"{"prefer": 429}"#)
        #expect(r.status == 400 && r.text.contains("code=429") && r.text.contains("to stop"), "\(r.text)")
        let empty = harness.admin(.put, "prefer", body: #"{"prefer": ""}"#)
        #expect(empty.status == 400, "\(empty.text)")
    }
}

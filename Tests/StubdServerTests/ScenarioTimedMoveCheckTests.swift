import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import StubdTestSupport
import Testing

/// Timed moves `stubd check` refuses (issue 42): one from Started, one after no time; no server
/// started. Split from ScenarioTimedMoveServerTests.
@Suite struct ScenarioTimedMoveCheckTests {
    @Test func checkRefusesAMoveFromStartedAndOneAfterNoTime() throws {
        let stubs = try TempStubs(["stubd.yml": """
            scenarios:
              door:
                moves:
                  - { from: Started, after: 10s, to: open }
                  - { from: open, after: 0s, to: closed }
                  - { from: closed, aftr: 1s, to: open }
            routes:
              - request: { method: POST, path: /door }
                response: { status: 204 }
                scenario: door
                thenState: open
            """])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        let text = r.output + r.error
        #expect(r.status != 0, "\(text)")
        #expect(text.contains("stubd.yml:4:17: a timed move cannot start from Started"), "\(text)")
        #expect(text.contains("stubd.yml:5:30: a timed move's 'after' must be more than 0"), "\(text)")
        #expect(text.contains("unknown key 'aftr' in a timed move") && text.contains("did you mean 'after'?"), "\(text)")
    }
}

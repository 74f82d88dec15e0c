import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// A named session lives from its first request until it is reset, answered by the engine with no
/// socket (`EngineHarness`; this ran through a real server before issue 59).
@Suite struct SessionLifetimeTests {
    /// Resetting a named session drops it from the engine; another session keeps its hits.
    @Test func resettingANamedSessionDropsIt() throws {
        let harness = try EngineHarness(folder: plainStubs)
        _ = harness.answer("/plain/payload.json", session: "t1")
        _ = harness.answer("/plain/payload.json", session: "t2")
        #expect(harness.engine.sessionCount == 2)
        #expect(harness.admin(.post, "reset", session: "t1").status == 200)
        #expect(harness.engine.sessionCount == 1)
        #expect(try harness.hits("GET /plain/payload.json", session: "t2") == 1)
    }
}

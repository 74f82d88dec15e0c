import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol

/// Any request naming a new session makes one (issue 11), and the engine holds at most `maxSessions`:
/// answered with no socket (`EngineHarness`; this ran through a real server before issue 59).
/// SessionBoundsTests in StubdServerTests keeps what needs one: a session id refused where the
/// request names it, the memory 3,000 sessions take in a running server.
@Suite struct SessionCapTests {
    /// Past the cap, the session unused longest is evicted (and the notice says which): a session in
    /// use keeps its hits.
    @Test func sessionsPastTheCapEvictTheOneUnusedLongest() throws {
        let notices = Locked<[String]>([])
        let harness = try EngineHarness(folder: plainStubs, maxSessions: 20, notice: { message in notices.withLock { $0.append(message) } })
        for i in 0..<50 {
            let r = harness.answer("/plain/payload.json", session: "t\(i)")
            #expect(r.status == 200)
            // t0 stays in use, so it is never the one evicted.
            _ = harness.admin(.get, "hits", session: "t0")
        }
        #expect(harness.engine.sessionCount == 20)
        let kept = harness.admin(.get, "hits?route=GET /plain/payload.json", session: "t0")
        #expect(kept.text.contains("\"hits\":1"), "\(kept.text)")
        let messages = notices.withLock { $0 }
        #expect(messages.count == 30)
        #expect(messages.first?.contains("session 't1' evicted") == true, "\(messages.first ?? "")")
    }
}

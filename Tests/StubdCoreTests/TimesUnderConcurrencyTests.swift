import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

@Suite struct TimesUnderConcurrencyTests {
    /// `times` under concurrency: exactly 500 answers from the limited route, and each request is
    /// one hit and one journal entry. (The race where a use runs out between matching and
    /// answering is too narrow to provoke on demand; this checks the accounting around it.)
    @Test func everyRequestCountsOnceWhenTimesRunsOut() async throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - { name: limited, request: { path: /x }, times: 500, response: { status: 500 } }
              - { name: after, request: { path: /x }, priority: 9, response: { status: 200 } }
            """])
        let engine = StubEngine(catalog: try stubs.load(), journalCapacity: 10)
        let statuses = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).map { _ in engine.respond(to: RequestHead(method: .get, path: "/x"), in: engine.defaultSession).status.code } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let s = engine.defaultSession
        #expect(statuses.filter { $0 == 500 }.count == 500)
        #expect(s.hits(for: "limited") == 500)
        #expect(s.hits(for: "after") == 1100)
        #expect(s.journal.recent(limit: 0).total == 1600)
    }
}

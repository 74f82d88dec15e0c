import Foundation
import StubdCoreTestSupport
@testable import StubdEngine
import Testing

/// Issue 62 item 5: a quota naming a route is held to the names the folder has, with the place and a
/// guess, and a route that failed to load is not reported twice (once more through the quota naming it).
@Suite struct QuotaRouteNameProblemTests {
    static func problems(_ manifest: String) throws -> [LoadProblem] {
        let folder = try TempStubs(["stubd.yml": manifest])
        do {
            _ = try StubCatalog.load(stubs: folder.url)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func aMisspeltRouteNameGetsItsColumnAndAGuess() throws {
        let problems = try Self.problems("""
        routes:
          - name: conditions
            request: { path: /conditions }
            response: { json: {} }
        quotas:
          - name: api
            routes: [conditoins]
            limits: ["10/minute"]
        """)
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.line == 7 && problem.column == 14, "\(problem)")
        #expect(problem.message == "quota 'api' names route 'conditoins', which does not exist", "\(problem)")
        #expect(problem.hint?.hasPrefix("did you mean 'conditions'? route names: conditions") == true, "\(problem)")
    }

    @Test func aRouteThatFailedToLoadIsReportedOnceNotAgainThroughTheQuota() throws {
        let problems = try Self.problems("""
        routes:
          - name: conditions
            request: { paht: /conditions }
            response: { json: {} }
        quotas:
          - name: api
            routes: [conditions]
            limits: ["10/minute"]
        """)
        #expect(problems.contains { $0.message.contains("paht") }, "\(problems)")
        #expect(!problems.contains { $0.message.contains("quota") }, "the quota naming it is not a second mistake: \(problems)")
    }
}

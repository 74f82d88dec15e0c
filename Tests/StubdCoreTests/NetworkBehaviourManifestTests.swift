import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

@Suite struct NetworkBehaviourManifestTests {
    @Test func sequenceDelayAndFaultMistakesAreLoadErrorsWithLines() throws {
        let problems = try TempStubs(["stubd.yml": """
            routes:
              - { name: a, request: { path: /a }, responses: [] }
              - { name: b, request: { path: /b }, response: { status: 200, delay: -5ms } }
              - { name: c, request: { path: /c }, response: { status: 200 }, times: 0 }
              - { name: d, request: { path: /d }, response: { fault: boom } }
              - { name: e, request: { path: /e }, response: { delay: { uniform: [300ms, 50ms] } } }
              - { name: f, request: { path: /f }, response: { throttle: { bytes_per_second: 0 } } }
            """]).problems()
        #expect(problems.contains { $0.line == 2 && $0.message.contains("'responses' is empty") })
        #expect(problems.contains { $0.line == 3 && $0.message.contains("'-5ms' is not a duration") })
        #expect(problems.contains { $0.line == 4 && $0.message.contains("'times' must be at least 1") })
        #expect(problems.contains { $0.line == 5 && $0.message.contains("unknown fault 'boom'") })
        #expect(problems.contains { $0.line == 6 && $0.message.contains("must not exceed") })
        #expect(problems.contains { $0.line == 7 && $0.message.contains("bytes_per_second must be at least 1") })
    }
}

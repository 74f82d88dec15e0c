import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// Coverage with a spec loaded (issue 27): each operation × the statuses it documents, answered or
/// not, as the engine reports it (`GET /__stubd/coverage`) with no socket. Moved from SpecCoverageTests
/// (StubdServerTests), which keeps the `stubd coverage` command's table, JUnit and CTRF.
@Suite struct SpecCoverageAnswerTests {
    static func contracts() throws -> ContractSet {
        try EngineHarness.contract(spec: SpecCoverageStubs.spec)
    }

    /// The report, as `StubdClient.coverage()` reads it.
    static func coverage(_ server: EngineHarness) throws -> CoverageReport {
        try JSONDecoder().decode(CoverageReport.self, from: server.get("/__stubd/coverage").body)
    }

    static func operation(_ report: CoverageReport, _ name: String) -> CoverageReport.Operation? {
        report.operations?.first { $0.operation == name }
    }

    @Test func eachOperationListsItsDocumentedStatusesAnsweredAndHowToReachTheOthers() throws {
        let (first, second) = try withEngine(try TempStubs(SpecCoverageStubs.stubs).url, contracts: try Self.contracts()) { server in
            #expect(server.get("/weather/paris").status == 200)
            let first = try Self.coverage(server)
            #expect(server.get("/weather/paris", headers: ["Prefer": "code=429"]).status == 429)
            return (first, try Self.coverage(server))
        }
        let weather = try #require(Self.operation(first, "GET /weather/{city}"), "\(String(describing: first.operations))")
        #expect(weather.documented == [200, 404, 429])
        #expect(weather.answered == [200])
        #expect(weather.state == .partial)
        #expect(weather.routes == ["weather", "weather-429"])
        #expect(weather.hint(for: 429).contains("route weather-429 has it"), "\(weather.hint(for: 429))")
        #expect(weather.hint(for: 404).contains("no stub answers 404"), "\(weather.hint(for: 404))")
        let health = try #require(Self.operation(first, "GET /health"))
        #expect(health.documented == [200] && health.answered.isEmpty && health.state == .empty)
        // Two route items and four documented statuses; one of each reached.
        #expect(first.summary.items == 6 && first.summary.covered == 2, "\(first.summary)")

        let after = try #require(Self.operation(second, "GET /weather/{city}"))
        #expect(after.answered == [200, 429] && after.state == .partial)
        let message = try #require(second.uncoveredMessage(except: ["GET /health"]))
        #expect(message.contains("no test saw GET /weather/{city} answer 404, which the spec documents: no stub answers 404"), "\(message)")
        #expect(!message.contains("/health") && !message.contains("answer 429"), "\(message)")
        #expect(second.uncoveredMessage(except: ["GET /health", "GET /weather/{city}: 404"]) == nil)

        // Shards: one saw the 200, the other the 429; merged, the operation has both.
        let merged = CoverageReport.merged([first, try withEngine(try TempStubs(SpecCoverageStubs.stubs).url, contracts: try Self.contracts()) { server in
            _ = server.get("/weather/oslo", headers: ["Prefer": "code=429"])
            return try Self.coverage(server)
        }])
        #expect(Self.operation(merged, "GET /weather/{city}")?.answered == [200, 429])
        #expect(Self.operation(merged, "GET /weather/{city}")?.hints?.map(\.status) == [404])
    }

    /// Without a spec the report has no operations at all, as before.
    @Test func withoutASpecThereAreNoOperations() throws {
        let report = try withEngine(try TempStubs(SpecCoverageStubs.stubs).url) { try Self.coverage($0) }
        #expect(report.operations == nil)
        #expect(report.summary.items == 2)
    }
}

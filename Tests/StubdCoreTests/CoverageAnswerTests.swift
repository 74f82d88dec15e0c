import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// What `GET /__stubd/coverage` reports of a scripted run, per session and for the whole engine, and
/// the sentence an uncovered item gets, with no socket. Moved from CoverageTests (StubdServerTests),
/// which keeps Swift Testing's helper reading the report from a server, on the same folder
/// (`CoverageStubs`, StubdCoreTestSupport).
@Suite struct CoverageAnswerTests {
    /// The issue's bar: a known subset of requests, over two sessions and a reload, is reported as
    /// exactly that subset, for each session and for the whole server.
    @Test func aScriptedRunIsReportedAsExactlyWhatItReached() throws {
        let stubs = try TempStubs(CoverageStubs.files)
        try withEngine(stubs.url) { server in
            // A fault breaks the connection: the client sees no status, as over the wire.
            func send(_ path: String, _ session: String) -> Int? {
                let answer = server.get(path, headers: ["X-Stubd-Session": session])
                return answer.fault == nil ? answer.status : nil
            }
            #expect(send("/plain.json", "a") == 200)
            #expect(send("/flaky", "a") == 503)
            #expect(send("/flaky", "b") == 503)
            #expect(send("/flaky", "b") == 200)
            #expect(send("/drop", "b") == nil)
            #expect(send("/limited", "b") == 200)
            #expect(send("/limited", "b") == 200)
            #expect(send("/limited", "b") == 429)
            // A reload keeps the counts of routes that survive it (same name, or same method and pattern).
            try stubs.write("added.json", "{}")
            try server.reload()
            #expect(server.http("/__s/b/__stubd/clock/advance", method: "POST", body: #"{"seconds": 61}"#).status == 200)
            #expect(send("/limited", "b") == 200)
            #expect(send("/limited", "a") == 200)

            let whole = try coverage(server, session: nil)
            #expect(whole.session == nil)
            #expect(covered(whole) == [
                "GET /plain.json: answer 1",
                "flaky: answer 1", "flaky: answer 2",
                "drop: answer 1",
                "limited: answer 1", "limited: quota tight under-limit", "limited: quota tight exceeded",
                "limited: quota tight reset-by-clock",
            ])
            #expect(hits(whole, "flaky") == ["answer 1": 2, "answer 2": 1])
            #expect(hits(whole, "limited") == ["answer 1": 4, "quota tight under-limit": 4, "quota tight exceeded": 1,
                                               "quota tight reset-by-clock": 1])
            #expect(whole.routes.first { $0.route == "GET /added.json" }?.items.map(\.hits) == [0])
            #expect(whole.summary.items == 14)
            #expect(whole.summary.covered == 8)
            #expect(whole.summary.percent == 57.1)
            #expect(whole.behaviours.map(\.behaviour) == ["delay", "fault connection_reset", "hang", "throttle"])
            #expect(whole.behaviours.first { $0.behaviour == "fault connection_reset" }?.covered == 1)

            let a = try coverage(server, session: "a")
            #expect(a.session == "a")
            #expect(covered(a) == ["GET /plain.json: answer 1", "flaky: answer 1", "limited: answer 1",
                                   "limited: quota tight under-limit"])

            // A reset session's counts leave it, not the whole server's.
            #expect(server.http("/__s/b/__stubd/reset", method: "POST", body: "{}").status == 200)
            #expect(covered(try coverage(server, session: "b")).isEmpty)
            #expect(try coverage(server, session: nil).routes == whole.routes)
        }
    }

    /// The sentence an assertion shows names the quota's refusal and both ways to reach it.
    @Test func anUncoveredRefusalSaysHowToReachIt() throws {
        try withEngine(try TempStubs(WeatherQuotaStubs.files).url) { server in
            let report = try coverage(server, session: nil)
            let refusal = try #require(report.uncovered.first { $0.item.kind == .exceeded })
            #expect(CoverageReport.explain(refusal.item, on: refusal.route)
                == "no test saw the 429 of quota `wunderground` on GET /api/{key}/conditions/q/CA/San_Francisco.json: "
                + #"send 11 requests within a minute, or set `used` with `PUT /__stubd/quotas/wunderground` {"key": …, "used": {"minute": 10}}, then send one"#)
        }
    }

    private func coverage(_ server: EngineHarness, session: String?) throws -> CoverageReport {
        let r = server.get("/__stubd/coverage" + (session.map { "?session=\($0)" } ?? ""))
        #expect(r.status == 200)
        return try JSONDecoder().decode(CoverageReport.self, from: r.body)
    }

    private func covered(_ report: CoverageReport) -> Set<String> {
        Set(report.routes.flatMap { route in route.items.filter(\.isCovered).map { "\(route.route): \($0.id)" } })
    }

    private func hits(_ report: CoverageReport, _ route: String) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: report.routes.first { $0.route == route }?.items.map { ($0.id, $0.hits) } ?? [])
    }
}

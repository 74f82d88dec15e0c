import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdProtocol
import StubdTestSupport
import StubdTesting
import Testing

/// One of everything coverage tells apart: a plain file, a sequence, a delay, a fault, a hang, a
/// throttle and a quota, on a virtual clock so the quota's window passes on request.
let coverageStubs: [String: String] = [
    "plain.json": #"{"ok": true}"#,
    "never.json": "{}",
    "ok.json": "{}",
    "stubd.yml": """
    clock: { virtual: "2016-08-30T00:00:00Z" }
    routes:
      - name: flaky
        request: { path: /flaky }
        responses: [{ status: 503 }, { file: ok.json }]
      - name: slow
        request: { path: /slow }
        response: { file: ok.json, delay: 1ms }
      - name: drop
        request: { path: /drop }
        response: { fault: connection_reset }
      - name: stuck
        request: { path: /stuck }
        response: { fault: hang }
      - name: dribble
        request: { path: /dribble }
        response: { file: ok.json, throttle: 100000 }
      - name: limited
        request: { path: /limited }
        response: { file: ok.json }
    quotas:
      - { name: tight, routes: [limited], limits: ["2/minute"] }
    """,
]

@Suite struct CoverageTests {
    /// The issue's bar: a known subset of requests, over two sessions and a reload, is reported as
    /// exactly that subset, for each session and for the whole server.
    @Test func aScriptedRunIsReportedAsExactlyWhatItReached() async throws {
        let stubs = try TempStubs(coverageStubs)
        try await withServer(stubs.url) { server in
            func send(_ path: String, _ session: String) async -> Int? {
                try? await get(server.baseURL, path, headers: ["X-Stubd-Session": session]).status
            }
            #expect(await send("/plain.json", "a") == 200)
            #expect(await send("/flaky", "a") == 503)
            #expect(await send("/flaky", "b") == 503)
            #expect(await send("/flaky", "b") == 200)
            #expect(await send("/drop", "b") == nil)
            #expect(await send("/limited", "b") == 200)
            #expect(await send("/limited", "b") == 200)
            #expect(await send("/limited", "b") == 429)
            // A reload keeps the counts of routes that survive it (same name, or same method and pattern).
            try stubs.write("added.json", "{}")
            _ = try server.reload()
            try await server.session("b").advanceClock(by: .seconds(61))
            #expect(await send("/limited", "b") == 200)
            #expect(await send("/limited", "a") == 200)

            let whole = try await coverage(server.baseURL, session: nil)
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

            let a = try await coverage(server.baseURL, session: "a")
            #expect(a.session == "a")
            #expect(covered(a) == ["GET /plain.json: answer 1", "flaky: answer 1", "limited: answer 1",
                                   "limited: quota tight under-limit"])

            // A reset session's counts leave it, not the whole server's.
            try await server.session("b").reset()
            #expect(covered(try await coverage(server.baseURL, session: "b")).isEmpty)
            #expect(try await coverage(server.baseURL, session: nil).routes == whole.routes)
        }
    }

    /// The sentence an assertion shows names the quota's refusal and both ways to reach it.
    @Test func anUncoveredRefusalSaysHowToReachIt() async throws {
        try await withServer(try TempStubs(quotaStubs).url) { server in
            let report = try await coverage(server.baseURL, session: nil)
            let refusal = try #require(report.uncovered.first { $0.item.kind == .exceeded })
            #expect(CoverageReport.explain(refusal.item, on: refusal.route)
                == "no test saw the 429 of quota `wunderground` on GET /api/{key}/conditions/q/CA/San_Francisco.json: "
                + #"send 11 requests within a minute, or set `used` with `PUT /__stubd/quotas/wunderground` {"key": …, "used": {"minute": 10}}, then send one"#)
        }
    }

    /// Swift Testing's helper records one issue naming what was missed.
    @Test func expectStubsCoveredRecordsWhatNoRequestReached() async throws {
        try await withServer(try TempStubs(coverageStubs).url) { server in
            _ = try await get(server.baseURL, "/flaky")
            await withKnownIssue {
                await expectStubsCovered(server.session("none"), except: ["stuck"])
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                return text.contains("12 of 13 stub items never reached in session none")
                    && text.contains("no test saw the answer 2 of 2 (200) on GET /flaky (route flaky): send GET /flaky 2 times in one session")
                    && !text.contains("hang")
            }
            // The whole server saw the first answer of flaky, so only the rest is listed.
            await withKnownIssue {
                await expectStubsCovered(server, except: ["stuck"])
            } matching: { issue in issue.comments.map(\.rawValue).joined().contains("11 of 13 stub items never reached:") }
        }
    }

    private func coverage(_ base: URL, session: String?) async throws -> CoverageReport {
        let r = try await get(base, "/__stubd/coverage" + (session.map { "?session=\($0)" } ?? ""))
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

import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol

/// Issue 38, item 8, answered by the engine with no socket (`EngineHarness`; these ran through a real
/// server before issue 59): keys a client invents are forgotten once their windows pass, and a quota
/// counts at most `maxKeys` of them. QuotaKeyServerTests in StubdServerTests keeps the report's pages
/// as StubdClient joins them.
@Suite struct QuotaKeyAnswerTests {
    func stubs(maxKeys: Int? = nil) throws -> TempStubs { try KeyedQuotaStubs.folder(maxKeys: maxKeys) }

    /// The quotas report (`GET /__stubd/quotas`) in one page of the largest size, which holds every
    /// key these tests make: what StubdClient's `quotas()` joins from pages.
    func quotas(_ harness: EngineHarness) throws -> QuotasReport {
        let report = try AdminCoding.decode(QuotasReport.self, from: harness.admin(.get, "quotas?limit=\(QuotasReport.maxPageSize)").body)
        #expect(report.next == nil, "one page was to hold every key")
        return report
    }

    /// Distinct keys, one request each.
    func request(_ harness: EngineHarness, keys: Range<Int>) -> [Int] {
        keys.map { harness.answer("/a.json?k=key\($0)").status }
    }

    /// 300 keys, then the session's clock moved past every window: the report holds none of them.
    @Test func movingTheClockPastEveryWindowForgetsTheKeys() throws {
        let harness = try EngineHarness(stubs())
        #expect(request(harness, keys: 0..<300).allSatisfy { $0 == 200 })
        let before = try quotas(harness).quotas[0]
        #expect(before.keys.count == 300 && before.keyCount == 300)
        #expect(harness.admin(.post, "clock/advance", body: #"{"seconds": 61}"#).status == 200)
        let after = try quotas(harness).quotas[0]
        #expect(after.keys.isEmpty && after.keyCount == 0, "\(after.keys.prefix(3))")
    }

    /// A new key past `maxKeys` is a 503 naming the cap and where it is set, the notice says so once,
    /// the journal says why; a key already counted goes on, and once the windows pass a new key is let in.
    @Test func aNewKeyPastMaxKeysGets503NamingTheCapAndTheLogSaysSoOnce() throws {
        let notices = Locked<[String]>([])
        let harness = try EngineHarness(stubs(maxKeys: 3), notice: { line in notices.withLock { $0.append(line) } })
        #expect(request(harness, keys: 0..<3) == [200, 200, 200])
        for _ in 0..<2 {
            let refused = harness.answer("/a.json?k=key3")
            #expect(refused.status == 503)
            let detail = refused.json["detail"] as? String ?? ""
            #expect(detail.contains("quota 'keyed' counts 3 keys at once, its cap (maxKeys)") && detail.contains("stubd.yml:"), "\(detail)")
        }
        // A key it counts goes on; the cap was logged once.
        #expect(harness.answer("/a.json?k=key0").status == 200)
        #expect(notices.withLock { $0.filter { $0.contains("maxKeys") }.count } == 1, "\(notices.withLock { $0 })")
        let quota = try quotas(harness).quotas[0]
        #expect(quota.keyCount == 3 && quota.maxKeys == 3)
        // The journal says why.
        let last = try #require(try harness.requests().requests.first { $0.status == 503 })
        #expect(last.notes?.contains { $0.contains("maxKeys") } == true, "\(last)")

        #expect(harness.admin(.post, "clock/advance", body: #"{"seconds": 61}"#).status == 200)
        #expect(harness.answer("/a.json?k=key3").status == 200)
    }
}

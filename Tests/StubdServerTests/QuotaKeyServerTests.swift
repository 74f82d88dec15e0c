import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdProtocol
import StubdTestSupport
import Testing

/// Issue 38, item 8, over real sockets: the quotas report comes a page at a time, and StubdClient
/// joins the pages. Keys forgotten once their windows pass and the `maxKeys` cap, with no socket:
/// QuotaKeyAnswerTests in StubdCoreTests.
@Suite struct QuotaKeyServerTests {
    func stubs(maxKeys: Int? = nil) throws -> URL { try KeyedQuotaStubs.folder(maxKeys: maxKeys).url }

    /// Every page of the report, joined by the client library.
    func quotas(_ server: StubServer) async throws -> QuotasReport {
        try await StubdClient(baseURL: server.baseURL).quotas()
    }

    /// Distinct keys, 32 requests at a time.
    func request(_ base: URL, keys: Range<Int>) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var statuses: [Int] = []
            for chunk in stride(from: keys.lowerBound, to: keys.upperBound, by: 32) {
                for i in chunk..<min(chunk + 32, keys.upperBound) {
                    group.addTask { try await get(base, "/a.json?k=key\(i)").status }
                }
                for try await status in group { statuses.append(status) }
            }
            return statuses
        }
    }

    @Test func theQuotasReportComesInPagesAndTheClientJoinsThem() async throws {
        try await withServer(try stubs()) { server in
            #expect(try await request(server.baseURL, keys: 0..<25).allSatisfy { $0 == 200 })
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                var url = server.baseURL.absoluteString + "/__stubd/quotas?limit=10"
                if let cursor { url += "&cursor=" + cursor }
                let page = try await http(URL(string: url)!)
                #expect(page.status == 200)
                let report = try JSONDecoder().decode(QuotasReport.self, from: page.body)
                #expect(report.quotas[0].keys.count <= 10 && report.quotas[0].keyCount == 25)
                seen += report.quotas[0].keys.map(\.key)
                cursor = report.next
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(seen == (0..<25).map { "key\($0)" }.sorted())
            #expect(try await quotas(server).quotas[0].keys.map(\.key) == seen)
            #expect(try await StubdClient(baseURL: server.baseURL).quotaTable().count == 26)
            let bad = try await get(server.baseURL, "/__stubd/quotas?cursor=nonsense")
            #expect(bad.status == 400 && (bad.json["detail"] as? String)?.contains("cursor") == true)
            #expect(try await get(server.baseURL, "/__stubd/quotas?limit=0").status == 400)
        }
    }
}

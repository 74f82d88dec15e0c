import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// `StubCatalog.amended(with:)` (what `serve --proxy --record-missing` puts in force the moment it
/// has written an answer) keeps everything folder-wide the loaded catalog had. It once rebuilt the
/// catalog without `drift.ignore` (issue 40, item 7).
@Suite struct CatalogAmendTests {
    @Test func anAmendedCatalogKeepsTheFolderWideSettings() throws {
        let stubs = try TempStubs([
            "stubd.yml": """
            defaults:
              queryNames: any-case
            drift:
              ignore:
                - /meta/generated
                - "/**/updated_at"
            quotas:
              - name: api
                routes: ["GET /api/**"]
                limits: ["10/minute"]
            """,
            "api/a.json": #"{"a": 1}"#,
            "api/b.json": #"{"b": 2}"#,
        ])
        let catalog = try stubs.load()
        let amended = catalog.amended(with: catalog.routes[0])
        #expect(amended.driftIgnore.map(\.description) == ["/meta/generated", "/**/updated_at"])
        #expect(amended.driftIgnore == catalog.driftIgnore)
        #expect(amended.queryNamesIgnoreCase == catalog.queryNamesIgnoreCase)
        #expect(amended.quotas.map(\.name) == catalog.quotas.map(\.name))
        #expect(amended.clock == catalog.clock)
        #expect(amended.routes.count == catalog.routes.count)
    }
}

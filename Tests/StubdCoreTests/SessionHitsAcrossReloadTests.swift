import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// Hits are the session's, kept by route key: a reload that swaps the catalog keeps them, for the
/// default session as for a named one. Moved from EngineStateTests (StubdServerTests).
@Suite struct SessionHitsAcrossReloadTests {
    /// Hit counts of the default session and of a named one are kept the same way, and both survive a reload.
    @Test func theDefaultSessionCountsLikeAnyOther() throws {
        let stubs = try TempStubs(["a.json": "{}", "b.json": "{}"])
        try withEngine(stubs.url) { server in
            for _ in 0..<3 { _ = server.get("/a.json") }
            for _ in 0..<2 { _ = server.get("/__s/named/a.json") }
            try stubs.write("b.json", #"{"changed": true}"#)
            try server.reload()
            _ = server.get("/a.json")
            #expect(try server.hits("GET /a.json") == 4)
            #expect(try server.hits("GET /a.json", session: "named") == 2)
        }
    }
}

import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// A session holds at most `--max-runtime-stubs` runtime stubs: the admin API's answer past the cap,
/// through the engine with no socket (moved from StubdServerTests).
@Suite struct RuntimeStubCapTests {
    @Test func aSessionHoldsAtMostTheCapOfRuntimeStubs() throws {
        try withEngine(exampleStubs, maxRuntimeStubs: 100) { server in
            let session = server.engine.session("cap")
            for i in 0..<100 {
                _ = try server.endpoints.addRuntimeStub(json: #"{"request": {"path": "/r\#(i)"}, "response": {"status": 200}}"#, to: session)
            }
            let r = server.http("/__s/cap/__stubd/stubs", method: "POST",
                                body: #"{"request": {"path": "/one-more"}, "response": {"status": 200}}"#)
            #expect(r.status == 400)
            #expect(r.text.contains("already holds 100 runtime stubs"), "\(r.text)")
            #expect(server.get("/__s/cap/r99").status == 200)
        }
    }
}

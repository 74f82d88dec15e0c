import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Synchronization
import Testing
import StubdCore

@Suite struct RuntimeStubCapTests {
    @Test func aSessionHoldsAtMostTheCapOfRuntimeStubs() async throws {
        var options = StubServer.Options()
        options.maxRuntimeStubs = 100
        try await withServer(exampleStubs, options: options) { server in
            let session = server.engine.session("cap")
            for i in 0..<100 {
                _ = try server.admin.addRuntimeStub(json: #"{"request": {"path": "/r\#(i)"}, "response": {"status": 200}}"#, to: session)
            }
            let r = try await http(URL(string: server.baseURL.absoluteString + "/__s/cap/__stubd/stubs")!, method: "POST",
                                   body: #"{"request": {"path": "/one-more"}, "response": {"status": 200}}"#)
            #expect(r.status == 400)
            #expect(r.text.contains("already holds 100 runtime stubs"), "\(r.text)")
            #expect(try await get(server.baseURL, "/__s/cap/r99").status == 200)
        }
    }
}

import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

@Suite struct DuplicateNameTests {
    @Test func twoRoutesUnderOneNameDoNotLoad() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - name: one
                request: { path: /a }
                response: { status: 200 }
              - name: one
                request: { path: /b }
                response: { status: 201 }
            """])
        #expect {
            _ = try StubCatalog.load(stubs: stubs.url)
        } throws: { error in
            let text = "\(error)"
            return text.contains("stubd.yml:5:") && text.contains("route name 'one' is used twice: at stubd.yml:2 and here")
        }
    }

    @Test func aRuntimeStubCannotTakeAUsedName() throws {
        try withEngine(exampleStubs) { server in
            let add = "/__stubd/stubs"
            let r = server.http(add, method: "POST", body: #"{"name": "london", "request": {"path": "/x"}, "response": {"status": 200}}"#)
            #expect(r.status == 400)
            #expect(r.text.contains("route name 'london' is already used by stubd.yml:"), "\(r.text)")
            #expect(server.http(add, method: "POST", body: #"{"name": "mine", "request": {"path": "/x"}, "response": {"status": 200}}"#).status == 201)
            #expect(server.http(add, method: "POST", body: #"{"name": "mine", "request": {"path": "/y"}, "response": {"status": 200}}"#).status == 400)
        }
    }
}

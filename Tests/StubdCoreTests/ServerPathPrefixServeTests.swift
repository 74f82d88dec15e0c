import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// Issue 58 item 3, through the engine: `serve --spec` with `servers: [{url: …/v1}]` answers the generated
/// client's `/v1/pets/7` and a hand's `/pets/7` with the one route written as the spec's path.
@Suite struct ServerPathPrefixServeTests {
    @Test func serveSpecAnswersAPathWithAndWithoutTheServersPrefix() throws {
        let spec = try TempStubs(["openapi.yaml": ServerPathPrefixTests.spec(servers: #"servers: [{url: "https://api.example.com/v1"}]"#)])
        let stubs = try TempStubs(["pets/{id}.json": #"{"name": "Rex"}"#])
        let contracts = ContractSet(try APIContract.load(spec: spec.url.appendingPathComponent("openapi.yaml")))
        let serve = try EngineHarness(stubs, contracts: contracts)
        for path in ["/v1/pets/7", "/pets/7"] {
            let r = serve.get(path)
            #expect(r.status == 200, "\(path): \(r.text)")
            #expect(r.json["name"] as? String == "Rex", "\(path): \(r.text)")
        }
        #expect(serve.get("/v2/pets/7").status == 404)
    }
}

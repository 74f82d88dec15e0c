import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 58 item 3: with `servers: [{url: https://api.example.com/v1}]` (or Swagger 2.0's
/// `basePath: /v1`) a generated client asks for `/v1/pets/7`; the operation is `/pets/{id}`, and
/// neither the contract nor the routes knew the two were one.
@Suite struct ServerPathPrefixTests {
    static func spec(servers: String) -> String {
        """
        openapi: 3.0.3
        info: {title: pets, version: "1"}
        \(servers)
        paths:
          /pets/{id}:
            get:
              parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
              responses:
                "200":
                  description: a pet
                  content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}
        """
    }

    private func contract(_ text: String, name: String = "openapi.yaml") throws -> APIContract {
        let folder = try TempStubs([name: text])
        return try APIContract.load(spec: folder.url.appendingPathComponent(name))
    }

    @Test(arguments: [
        ("servers: [{url: https://api.example.com/v1}]", "/v1"),
        ("servers: [{url: /v1/}]", "/v1"),
        ("servers: [{url: \"{scheme}://api.example.com/{basePath}\", variables: {scheme: {default: https}, basePath: {default: v2/beta}}}]", "/v2/beta"),
        ("servers: [{url: https://api.example.com}]", nil),
        ("servers: [{url: \"https://{region}.example.com/{version}\", variables: {region: {default: eu}}}]", nil),
    ] as [(String, String?)])
    func aServerURLsPathIsItsPrefix(servers: String, prefix: String?) throws {
        #expect(try contract(Self.spec(servers: servers)).serverPrefixes.map(\.path) == (prefix.map { [$0] } ?? []))
    }

    @Test func aRequestAndAStubRouteUnderThePrefixAreForTheOperationWithout() throws {
        let contract = try contract(Self.spec(servers: "servers: [{url: https://api.example.com/v1}]"))
        #expect(contract.operation(method: .get, requestPath: "/v1/pets/7")?.operation.signature == "GET /pets/{id}")
        #expect(contract.operation(method: .get, requestPath: "/pets/7")?.operation.signature == "GET /pets/{id}")
        #expect(contract.operation(method: .get, requestPath: "/v2/pets/7") == nil)

        let stubs = try TempStubs(["v1/pets/{id}.json": #"{"name": "Rex"}"#, "pets/{id}.json": #"{"nmae": "Rex"}"#])
        let check = StubContractCheck(catalog: try stubs.load(), contract: contract)
        #expect(check.notices.allSatisfy { !$0.contains("matches no operation") }, "\(check.notices)")
        // Both are held to the operation: the one without the prefix breaks it.
        #expect(check.problems.count == 1 && check.problems.first?.description.hasPrefix("pets/{id}.json") == true, "\(check.problems)")
    }

    @Test func swaggerBasePathIsAPrefixToo() throws {
        let contract = try contract("""
            swagger: "2.0"
            info: {title: pets, version: "1"}
            host: api.example.com
            basePath: /v1
            paths:
              /pets/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, type: integer}]
                  responses: {"200": {description: a pet}}
            """, name: "swagger.yaml")
        #expect(contract.serverPrefixes.map(\.path) == ["/v1"])
        #expect(contract.operation(method: .get, requestPath: "/v1/pets/7")?.operation.signature == "GET /pets/{id}")
    }

    @Test func theEngineAnswersARequestUnderThePrefixWithTheRouteWrittenWithout() throws {
        let contract = try contract(Self.spec(servers: "servers: [{url: https://api.example.com/v1}]"))
        let stubs = try TempStubs(["pets/{id}.json": #"{"name": "Rex"}"#])
        let engine = StubEngine(catalog: try stubs.load(), specs: ContractSet(contract))
        for path in ["/v1/pets/7", "/pets/7"] {
            #expect(engine.respond(to: RequestHead(method: .get, path: path), in: engine.defaultSession).status.code == 200, "\(path)")
        }
        #expect(engine.respond(to: RequestHead(method: .get, path: "/v2/pets/7"), in: engine.defaultSession).status.code == 404)
        // Without the spec there is no prefix to know of.
        let plain = StubEngine(catalog: try stubs.load())
        #expect(plain.respond(to: RequestHead(method: .get, path: "/v1/pets/7"), in: plain.defaultSession).status.code == 404)
    }
}

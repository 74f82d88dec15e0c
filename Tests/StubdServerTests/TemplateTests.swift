import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing
import StubdProtocol

/// Templates over real sockets: what needs a server, a delay in real time and a runtime stub added by
/// the client. What the request and the session's clock put into the answer, with no socket:
/// TemplateAnswerTests in StubdCoreTests.
@Suite struct TemplateTests {
    @Test func templatesComposeWithSequencesDelaysAndQuotas() async throws {
        let stubs = try TempStubs([
            "stubd.yml": """
            quotas:
              - name: q
                routes: ["GET /items/{id}"]
                limits: ["2/hour"]  # windows start at :00; a minute's could turn over mid-test
            routes:
              - request: { path: "/items/{id}" }
                responses:
                  - { template: true, delay: 50ms, json: { id: "{{request.path.id}}", n: 1 } }
                  - { template: true, json: { id: "{{request.path.id}}", n: 2 } }
            """,
        ])
        try await withServer(stubs.url) { server in
            let start = Date()
            let a = try await get(server.baseURL, "/items/x1")
            #expect(Date().timeIntervalSince(start) >= 0.05)
            #expect(a.json["id"] as? String == "x1" && a.json["n"] as? Int == 1)
            let b = try await get(server.baseURL, "/items/x2")
            #expect(b.json["id"] as? String == "x2" && b.json["n"] as? Int == 2)
            #expect(try await get(server.baseURL, "/items/x3").status == 429)
        }
    }

    @Test func aRuntimeStubCanBeATemplate() async throws {
        try await withServer(exampleStubs) { server in
            _ = try await server.addStub(StubRoute(.get("/greet/{name}"), response: .template(#"{"hello": "{{request.path.name}}"}"#)))
            let r = try await get(server.baseURL, "/greet/ada")
            #expect(r.json["hello"] as? String == "ada")
            let routes = try await get(server.baseURL, "/__stubd/stubs").json["stubs"] as? [[String: Any]]
            #expect(routes?.first?["templated"] as? Bool == true)
            // A template error is the add's 400, with the position.
            do {
                _ = try await server.addStub(StubRoute(.get("/greet2/{name}"), response: .template(#"{"hello": "{{request.path.nmae}}"}"#)))
                Issue.record("a broken template was added")
            } catch let error as StubdError {
                #expect("\(error)".contains("request.path.nmae"))
                #expect("\(error)".contains("did you mean request.path.name"))
            }
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdProtocol
import StubdTestSupport
import Testing
import HTTPTypes

/// Runtime stubs as StubdClient writes and sends them, through a real server. What the admin API
/// does with one it cannot take, with no socket: RuntimeStubAdminTests in StubdCoreTests.
@Suite struct RuntimeStubTests {
    @Test func aRuntimeStubOverridesTheCatalogUntilRemoved() async throws {
        try await withServer(exampleStubs) { server in
            let path = "/api/KEY/conditions/q/CA/San_Francisco.json"
            let id = try await server.addStub(StubRoute(.get(path), response: .status(500)))
            #expect(try await get(server.baseURL, path).status == 500)
            try await server.removeStub(id: id)
            #expect(try await get(server.baseURL, path).status == 200)
        }
    }

    @Test func runtimeStubsBelongToTheirSession() async throws {
        try await withServer(exampleStubs) { server in
            let a = server.session("a")
            _ = try await a.addStub(StubRoute(.get("/flaky"), responses: [.status(503), .status(503), .json(#"{"ok":1}"#)]))
            #expect(try await get(server.baseURL, "/flaky").status == 404)
            let statuses = try await (0..<4).asyncMap { _ in try await get(a.baseURL, "/flaky").status }
            #expect(statuses == [503, 503, 200, 200])
            let once = try await a.addStub(StubRoute(.get("/once"), response: .text("hi"), times: 1))
            #expect(!once.isEmpty)
            #expect(try await get(a.baseURL, "/once").status == 200)
            #expect(try await get(a.baseURL, "/once").status == 404)
        }
    }

    @Test func aRuntimeStubsJSONArrivesAsWritten() async throws {
        try await withServer(exampleStubs) { server in
            let json = #"{"id": 7, "price": 2.5, "tags": ["a", "/b"], "ok": true, "none": null, "tweet": 1234567890123456}"#
            _ = try await server.addStub(StubRoute(.post("/v1/reports"), response: .json(json, status: 201)))
            let r = try await http(URL(string: server.baseURL.absoluteString + "/v1/reports")!, method: "POST", body: "")
            #expect(r.status == 201)
            // Integers stay integers (7, not 7.0; a 16-digit ID not in exponent form), slashes unescaped.
            let body = String(decoding: r.body, as: UTF8.self)
            #expect(body.contains(#""id":7"#) || body.contains(#""id": 7"#))
            #expect(body.contains(#""tweet":1234567890123456"#))
            #expect(r.json["price"] as? Double == 2.5)
            #expect(r.json["tags"] as? [String] == ["a", "/b"])
        }
    }

    @Test func aRuntimeStubWhoseJSONIsNotJSONIsRefusedBeforeSending() async throws {
        try await withServer(exampleStubs) { server in
            do {
                _ = try await server.addStub(StubRoute(.get("/typo"), responses: [.status(503), .json(#"{"ok": tru}"#)]))
                Issue.record("a stub whose json is not JSON was added")
            } catch let error as StubdError {
                #expect("\(error)".contains("GET /typo"))
                #expect("\(error)".contains("response 2 of 2's json is not valid JSON"))
            }
            #expect((try await get(server.baseURL, "/__stubd/stubs").json["stubs"] as? [Any])?.count == 0)
        }
    }

    /// The typed stub (method, status, HTTPFields, Delay, Fault) is written as the manifest spells
    /// it: the same document text the string-typed StubRoute sent.
    @Test func aTypedRuntimeStubGoesOnTheWireAsTheManifestWritesIt() throws {
        let route = StubRoute(.get("/a").header("X-Tenant", "*"), responses: [
            Response(status: 201, headers: [.contentType: "text/plain"], body: "hi", delay: .fixed(.milliseconds(200)), fault: .hang),
            Response.status(503).delayed(.uniform(.milliseconds(50), .milliseconds(1500))).header("Retry-After", "1"),
            Response.fault(.connectionReset).delayed(.lognormal(median: .milliseconds(80), sigma: 0.4)),
        ], cycle: true)
        #expect(try route.manifestJSON() == #"{"cycle":true,"request":{"headers":{"X-Tenant":"*"},"method":"GET","path":"/a"},"#
            + #""responses":[{"body":"hi","delay":"200ms","fault":"hang","headers":{"Content-Type":"text/plain"},"status":201},"#
            + #"{"delay":{"uniform":["50ms","1500ms"]},"headers":{"Retry-After":"1"},"status":503},"#
            + #"{"delay":{"lognormal":{"median":"80ms","sigma":0.4}},"fault":"connection_reset","status":200}]}"#)
        let document = try route.document()
        #expect(try AdminCoding.decode(RuntimeStubDocument.self, from: Data(try route.manifestJSON().utf8)) == document)
        #expect(try StubRoute(.any("/b"), response: .text("x")).manifestJSON().contains(#""method":"ANY""#))
    }

    @Test func aRuntimeStubsTypedStatusHeadersDelayAndFaultReachTheClient() async throws {
        try await withServer(exampleStubs) { server in
            _ = try await server.addStub(StubRoute(.get("/mine").header("X-Tenant", "blue"),
                                                   response: .json(#"{"ok": true}"#, status: .created).header("X-Request-Id", "7")
                                                       .delayed(.milliseconds(300))))
            _ = try await server.addStub(StubRoute(.get("/gone"), response: .fault(.emptyResponse)))
            _ = try await server.addStub(StubRoute(.get("/jitter"), responses: [
                Response.status(503).delayed(.uniform(.milliseconds(1), .milliseconds(2))),
                Response.text("x").delayed(.lognormal(median: .milliseconds(1), sigma: 0.4)),
            ]))
            #expect(try await get(server.baseURL, "/jitter").status == 503)
            #expect(try await get(server.baseURL, "/jitter").status == 200)
            let started = ContinuousClock.now
            let mine = try await get(server.baseURL, "/mine", headers: ["X-Tenant": "blue"])
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(mine.status == 201)
            #expect(mine.header("X-Request-Id") == "7")
            #expect(try await get(server.baseURL, "/mine", headers: ["X-Tenant": "red"]).status == 404)
            await #expect(throws: (any Error).self) { _ = try await get(server.baseURL, "/gone") }
        }
    }

    @Test func aHeaderNameThatIsNotATokenIsRefusedBeforeSending() async throws {
        try await withServer(exampleStubs) { server in
            await #expect(throws: StubdError.self) {
                _ = try await server.addStub(StubRoute(.get("/h"), response: .text("x").header("Bad Name", "1")))
            }
            do {
                _ = try StubRoute(.get("/h").header("a:b", "1"), response: .text("x")).document()
                Issue.record("a request header name with a colon was accepted")
            } catch {
                #expect("\(error)".contains("GET /h"))
                #expect("\(error)".contains("'a:b' is not an HTTP token"))
            }
            let stubs = try await get(server.baseURL, "/__stubd/stubs")
            #expect((stubs.json["stubs"] as? [Any])?.count == 0)
        }
    }
}

private typealias Response = StubRoute.Response

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

/// A web page the developer has open must not change stubd's state (issue 23): on loopback with no
/// token, a `text/plain` POST with `Origin: http://evil.example` added a stub (201) and reset
/// state (200). Sent with curl, which adds nothing of its own, as a browser's simple request would be.
@Suite struct AdminCrossSiteTests {
    static let stubs: [String: String] = ["ok.json": #"{"ok": true}"#]
    static let stub = #"{"request": {"path": "/planted"}, "response": {"body": "planted"}}"#

    /// The status and body of a POST with exactly these headers.
    static func post(_ server: StubServer, _ call: String, body: String, headers: [String]) throws -> (status: String, body: String) {
        let out = try curl(["-w", "\n%{http_code}", "-X", "POST", "--data-binary", body]
            + headers.flatMap { ["-H", $0] } + [server.baseURL.absoluteString + "/__stubd/" + call]).output
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    @Test func aTextPlainPostFromAnotherSiteIsRefusedAndChangesNothing() async throws {
        try await withServer(try TempStubs(AdminCrossSiteTests.stubs).url) { server in
            _ = try await get(server.baseURL, "/ok.json")
            let before = try await get(server.baseURL, "/__stubd/clock").json["epoch"] as? Int ?? 0
            let evil = ["Origin: http://evil.example", "Content-Type: text/plain"]
            let add = try AdminCrossSiteTests.post(server, "stubs", body: AdminCrossSiteTests.stub, headers: evil)
            #expect(add.status == "403", "\(add)")
            #expect(add.body.contains("Origin 'http://evil.example'"), "\(add)")
            #expect(add.body.contains("curl"), "\(add)")
            let reset = try AdminCrossSiteTests.post(server, "reset", body: "", headers: evil)
            #expect(reset.status == "403", "\(reset)")
            let advance = try AdminCrossSiteTests.post(server, "clock/advance", body: #"{"seconds": 3600}"#,
                                                       headers: ["Origin: http://evil.example", "Content-Type: application/json"])
            #expect(advance.status == "403", "\(advance)")
            // The browser's own word for it, without an Origin.
            let marked = try AdminCrossSiteTests.post(server, "reset", body: "{}",
                                                      headers: ["Sec-Fetch-Site: cross-site", "Content-Type: application/json"])
            #expect(marked.status == "403", "\(marked)")
            #expect(marked.body.contains("Sec-Fetch-Site: cross-site"), "\(marked)")

            // Nothing changed: no stub, the hit still counted, the clock where it was.
            #expect(try await get(server.baseURL, "/planted").status == 404)
            let runtime = try await get(server.baseURL, "/__stubd/stubs").json["stubs"] as? [Any]
            #expect(runtime?.isEmpty == true)
            #expect(try await server.hits("GET /ok.json") == 1)
            let after = try await get(server.baseURL, "/__stubd/clock").json["epoch"] as? Int ?? 0
            #expect(after - before < 3600)
        }
    }

    @Test func anAdminWriteThatIsNotJSONIsRefusedWithWhatToSend() async throws {
        try await withServer(try TempStubs(AdminCrossSiteTests.stubs).url) { server in
            for headers in [["Content-Type: text/plain"], ["Content-Type: application/x-www-form-urlencoded"], []] {
                let add = try AdminCrossSiteTests.post(server, "stubs", body: AdminCrossSiteTests.stub, headers: headers)
                #expect(add.status == "415", "\(headers): \(add)")
                #expect(add.body.contains("Content-Type: application/json"), "\(add)")
                #expect(add.body.contains("--json"), "\(add)")
            }
            #expect(try await get(server.baseURL, "/planted").status == 404)
            // A bodiless write too: a form can POST to reset with no body at all.
            let reset = try AdminCrossSiteTests.post(server, "reset", body: "", headers: ["Content-Type: text/plain"])
            #expect(reset.status == "415", "\(reset)")
            // Reads need nothing.
            #expect(try await get(server.baseURL, "/__stubd/routes").status == 200)
        }
    }

    @Test func theServersOwnOriginAndTheSwiftClientMayWrite() async throws {
        try await withServer(try TempStubs(AdminCrossSiteTests.stubs).url) { server in
            let own = try AdminCrossSiteTests.post(server, "stubs", body: AdminCrossSiteTests.stub,
                                                   headers: ["Origin: http://127.0.0.1:\(server.port)", "Content-Type: application/json; charset=utf-8"])
            #expect(own.status == "201", "\(own)")
            #expect(try await get(server.baseURL, "/planted").text == "planted")

            // StubdClient: every kind of write it makes.
            let client = StubdClient(baseURL: server.baseURL, adminToken: nil)
            let id = try await client.addStub(StubRoute(.get("/from-client"), response: .text("hi")))
            #expect(try await get(server.baseURL, "/from-client").text == "hi")
            try await client.advanceClock(by: .seconds(61))
            try await client.removeStub(id: id)
            #expect(try await get(server.baseURL, "/from-client").status == 404)
            try await client.reset()
            #expect(try await get(server.baseURL, "/planted").status == 404)
        }
    }

    @Test func aTokenDoesNotLetAnotherSiteWrite() async throws {
        var options = StubServer.Options()
        options.adminToken = "t0ken"
        try await withServer(try TempStubs(AdminCrossSiteTests.stubs).url, options: options) { server in
            let evil = try AdminCrossSiteTests.post(server, "reset", body: "{}",
                                                    headers: ["Origin: https://evil.example", "Content-Type: application/json",
                                                              "Authorization: Bearer t0ken"])
            #expect(evil.status == "403", "\(evil)")
            let fine = try AdminCrossSiteTests.post(server, "reset", body: "{}",
                                                    headers: ["Content-Type: application/json", "Authorization: Bearer t0ken"])
            #expect(fine.status == "200", "\(fine)")
        }
    }
}

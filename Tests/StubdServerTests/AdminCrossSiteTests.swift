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
/// state (200). Here what may write over the wire: the server's own origin (sent with curl, which adds
/// nothing of its own) and every write StubdClient makes. What `AdminAccess` refuses, with no socket:
/// AdminCrossSiteAnswerTests in StubdCoreTests.
@Suite struct AdminCrossSiteTests {
    static let stubs = AdminCrossSiteStubs.files
    static let stub = AdminCrossSiteStubs.stub

    /// The status and body of a POST with exactly these headers.
    static func post(_ server: StubServer, _ call: String, body: String, headers: [String]) throws -> (status: String, body: String) {
        let out = try curl(["-w", "\n%{http_code}", "-X", "POST", "--data-binary", body]
            + headers.flatMap { ["-H", $0] } + [server.baseURL.absoluteString + "/__stubd/" + call]).output
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
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
}

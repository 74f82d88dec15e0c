import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// A web page the developer has open must not change stubd's state (issue 23): on loopback with no
/// token, a `text/plain` POST with `Origin: http://evil.example` added a stub (201) and reset
/// state (200). What `AdminAccess` decides of such a write, through the harness with no socket: each
/// request carries exactly the headers a browser's simple request would. Moved from AdminCrossSiteTests
/// (StubdServerTests), which keeps the server's own origin and StubdClient's writes over the wire.
@Suite struct AdminCrossSiteAnswerTests {
    static let stub = AdminCrossSiteStubs.stub

    /// The folder of AdminCrossSiteTests, behind the admin API's checks as a loopback server has them.
    static func harness(token: String? = nil) throws -> EngineHarness {
        var server = try EngineHarness(try TempStubs(AdminCrossSiteStubs.files))
        server.access = AdminAccess(token: token, listensBeyondLoopback: false)
        return server
    }

    /// The status and body of a POST with exactly these headers (`Name: value`).
    static func post(_ server: EngineHarness, _ call: String, body: String, headers: [String]) -> (status: String, body: String) {
        let fields = Dictionary(uniqueKeysWithValues: headers.map { line in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        })
        let answer = server.http("/__stubd/" + call, method: "POST", body: body, headers: fields)
        return (String(answer.status), answer.text)
    }

    @Test func aTextPlainPostFromAnotherSiteIsRefusedAndChangesNothing() throws {
        let server = try Self.harness()
        _ = server.get("/ok.json")
        let before = server.get("/__stubd/clock").json["epoch"] as? Int ?? 0
        let evil = ["Origin: http://evil.example", "Content-Type: text/plain"]
        let add = Self.post(server, "stubs", body: Self.stub, headers: evil)
        #expect(add.status == "403", "\(add)")
        #expect(add.body.contains("Origin 'http://evil.example'"), "\(add)")
        #expect(add.body.contains("curl"), "\(add)")
        let reset = Self.post(server, "reset", body: "", headers: evil)
        #expect(reset.status == "403", "\(reset)")
        let advance = Self.post(server, "clock/advance", body: #"{"seconds": 3600}"#,
                                headers: ["Origin: http://evil.example", "Content-Type: application/json"])
        #expect(advance.status == "403", "\(advance)")
        // The browser's own word for it, without an Origin.
        let marked = Self.post(server, "reset", body: "{}", headers: ["Sec-Fetch-Site: cross-site", "Content-Type: application/json"])
        #expect(marked.status == "403", "\(marked)")
        #expect(marked.body.contains("Sec-Fetch-Site: cross-site"), "\(marked)")

        // Nothing changed: no stub, the hit still counted, the clock where it was.
        #expect(server.get("/planted").status == 404)
        let runtime = server.get("/__stubd/stubs").json["stubs"] as? [Any]
        #expect(runtime?.isEmpty == true)
        #expect(try server.hits("GET /ok.json") == 1)
        let after = server.get("/__stubd/clock").json["epoch"] as? Int ?? 0
        #expect(after - before < 3600)
    }

    /// Over the wire the third case was curl's own default for a POST with a body (a form type);
    /// here it is a body with no Content-Type at all, which no JSON write may be either.
    @Test func anAdminWriteThatIsNotJSONIsRefusedWithWhatToSend() throws {
        let server = try Self.harness()
        for headers in [["Content-Type: text/plain"], ["Content-Type: application/x-www-form-urlencoded"], []] {
            let add = Self.post(server, "stubs", body: Self.stub, headers: headers)
            #expect(add.status == "415", "\(headers): \(add)")
            #expect(add.body.contains("Content-Type: application/json"), "\(add)")
            #expect(add.body.contains("--json"), "\(add)")
        }
        #expect(server.get("/planted").status == 404)
        // A bodiless write too: a form can POST to reset with no body at all.
        let reset = Self.post(server, "reset", body: "", headers: ["Content-Type: text/plain"])
        #expect(reset.status == "415", "\(reset)")
        // Reads need nothing.
        #expect(server.get("/__stubd/routes").status == 200)
    }

    @Test func aTokenDoesNotLetAnotherSiteWrite() throws {
        let server = try Self.harness(token: "t0ken")
        let evil = Self.post(server, "reset", body: "{}",
                             headers: ["Origin: https://evil.example", "Content-Type: application/json", "Authorization: Bearer t0ken"])
        #expect(evil.status == "403", "\(evil)")
        let fine = Self.post(server, "reset", body: "{}", headers: ["Content-Type: application/json", "Authorization: Bearer t0ken"])
        #expect(fine.status == "200", "\(fine)")
    }
}

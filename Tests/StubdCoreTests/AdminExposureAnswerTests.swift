import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// Which Host an admin call may name, what the journal shows of credentials and what a runtime stub
/// may serve (issue 11, exposure): `AdminAccess` and the admin API's answers, through the engine with
/// no socket. Moved from AdminExposureTests (StubdServerTests), which keeps the token the server's own
/// client sends and a server listening beyond loopback.
@Suite struct AdminExposureAnswerTests {
    @Test(arguments: [("evil.example", 403), ("evil.example:80", 403), ("localhost:8080", 200), ("127.0.0.1", 200),
                      ("[::1]:9", 200), ("api.localhost", 200), ("stubd:8080", 200), ("10.1.2.3", 200)])
    func adminCallsAnswerOnlyToLoopbackNamesAddressesAndAllowedHosts(host: String, status: Int) throws {
        var server = try EngineHarness(folder: plainStubs)
        server.access = AdminAccess(token: nil, allowedHosts: ["stubd"], listensBeyondLoopback: false)
        #expect(server.get("/__stubd/routes", headers: ["Host": host]).status == status, "Host: \(host)")
        // Stubs themselves answer any Host: an app may use a hostname that resolves here.
        #expect(server.get("/plain/payload.json", headers: ["Host": host]).status == 200)
    }

    @Test func theJournalMasksCredentials() throws {
        try withEngine(plainStubs, maskedHeaders: ["X-Api-Key"]) { server in
            _ = server.get("/plain/payload.json",
                           headers: ["Authorization": "Bearer abc123", "Cookie": "sid=xyz789", "X-Api-Key": "k-456", "Accept": "application/json"])
            let journal = server.get("/__stubd/requests")
            #expect(!journal.text.contains("abc123") && !journal.text.contains("xyz789") && !journal.text.contains("k-456"), "\(journal.text)")
            #expect(journal.text.contains("Bearer <masked>"))
            #expect(journal.text.contains("application/json"), "other headers stay as sent")
        }
    }

    @Test(arguments: [".env", "sub/.git/config", "stubd.yml", "__files/.secret"])
    func aRuntimeStubCannotServeDotFilesOrTheManifest(file: String) throws {
        let stubs = try TempStubs(["stubd.yml": "routes: []\n", ".env": "PASSWORD=hunter2", "sub/.git/config": "x", "__files/.secret": "x", "ok.json": "{}"])
        try withEngine(stubs.url) { server in
            let r = server.http("/__stubd/stubs", method: "POST", body: #"{"request": {"path": "/leak"}, "response": {"file": "\#(file)"}}"#)
            #expect(r.status == 400, "\(file) → \(r.status)")
            #expect(r.text.contains("dot-file or the manifest"))
            #expect(server.get("/leak").status == 404)
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import StubdClient
import Testing
import StubdProtocol

/// Who may use the admin API, and what the journal shows (issue 11, exposure).
@Suite struct AdminExposureTests {
    @Test func aTokenIsRequiredForEveryAdminCallButHealth() async throws {
        var options = StubServer.Options()
        options.adminToken = "s3cret"
        try await withServer(plainStubs, options: options) { server in
            #expect(try await get(server.baseURL, "/__stubd/health").status == 200)
            let without = try await get(server.baseURL, "/__stubd/hits")
            #expect(without.status == 401)
            #expect(without.text.contains("STUBD_ADMIN_TOKEN"))
            #expect(try await get(server.baseURL, "/__stubd/hits", headers: ["Authorization": "Bearer wrong"]).status == 401)
            #expect(try await get(server.baseURL, "/__stubd/hits", headers: ["Authorization": "Bearer s3cret"]).status == 200)
            // The server's own StubControl sends it.
            _ = try await get(server.baseURL, "/plain/payload.json")
            #expect(try await server.hits("GET /plain/payload.json") == 1)
        }
    }

    @Test func beyondLoopbackWithoutATokenTheAdminAPIIsClosed() async throws {
        var options = StubServer.Options()
        options.adminToken = nil
        let server = try await StubServer.start(stubs: plainStubs, host: "0.0.0.0", options: options)
        defer { server.stopSynchronously() }
        let local = URL(string: "http://127.0.0.1:\(server.port)")!
        #expect(try await get(local, "/__stubd/health").status == 200)
        let r = try await get(local, "/__stubd/requests")
        #expect(r.status == 401)
        #expect(r.text.contains("admin API is closed"))
        #expect(try await get(local, "/plain/payload.json").status == 200, "stubs are served as ever")
    }

    @Test(arguments: [("evil.example", 403), ("evil.example:80", 403), ("localhost:8080", 200), ("127.0.0.1", 200),
                      ("[::1]:9", 200), ("api.localhost", 200), ("stubd:8080", 200), ("10.1.2.3", 200)])
    func adminCallsAnswerOnlyToLoopbackNamesAddressesAndAllowedHosts(host: String, status: Int) async throws {
        var options = StubServer.Options()
        options.allowedHosts = ["stubd"]
        try await withServer(plainStubs, options: options) { server in
            let r = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", server.baseURL.absoluteString + "/__stubd/routes"])
            #expect(r.output == String(status), "Host: \(host)")
            // Stubs themselves answer any Host: an app may use a hostname that resolves here.
            let stub = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", server.baseURL.absoluteString + "/plain/payload.json"])
            #expect(stub.output == "200")
        }
    }

    @Test func theJournalMasksCredentials() async throws {
        var options = StubServer.Options()
        options.maskedHeaders = ["X-Api-Key"]
        try await withServer(plainStubs, options: options) { server in
            _ = try await get(server.baseURL, "/plain/payload.json",
                              headers: ["Authorization": "Bearer abc123", "Cookie": "sid=xyz789", "X-Api-Key": "k-456", "Accept": "application/json"])
            let journal = try await get(server.baseURL, "/__stubd/requests")
            #expect(!journal.text.contains("abc123") && !journal.text.contains("xyz789") && !journal.text.contains("k-456"), "\(journal.text)")
            #expect(journal.text.contains("Bearer <masked>"))
            #expect(journal.text.contains("application/json"), "other headers stay as sent")
        }
    }

    @Test(arguments: [".env", "sub/.git/config", "stubd.yml", "__files/.secret"])
    func aRuntimeStubCannotServeDotFilesOrTheManifest(file: String) async throws {
        let stubs = try TempStubs(["stubd.yml": "routes: []\n", ".env": "PASSWORD=hunter2", "sub/.git/config": "x", "__files/.secret": "x", "ok.json": "{}"])
        try await withServer(stubs.url) { server in
            let r = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/stubs")!, method: "POST",
                                   body: #"{"request": {"path": "/leak"}, "response": {"file": "\#(file)"}}"#)
            #expect(r.status == 400, "\(file) → \(r.status)")
            #expect(r.text.contains("dot-file or the manifest"))
            #expect(try await get(server.baseURL, "/leak").status == 404)
        }
    }

    @Test func listeningBeyondLoopbackIsAWarningEvenAtWarningLevel() async throws {
        // Output to a file, read with a deadline: a pipe read could wait forever for a line that never comes.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-warning-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--stubs", plainStubs.path, "--host", "0.0.0.0", "--port", "0", "--no-watch", "--log-level", "warning"]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "STUBD_ADMIN_TOKEN")
        process.environment = env
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var text = ""
        _ = await eventually(within: 5) {
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.contains("reachable from other machines")
        }
        #expect(text.contains("warning"), "\(text)")
        #expect(text.contains("admin API is closed until you give --admin-token"), "\(text)")
    }

}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import StubdClient
import Testing
import StubdProtocol

/// Who may use the admin API (issue 11, exposure): a token the server's own client sends, a server
/// listening beyond loopback. Which Host an admin call may name, what the journal shows of
/// credentials and what a runtime stub may serve, with no socket: AdminExposureAnswerTests in StubdCoreTests.
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

import Foundation
import Stubd
import StubdClient
import StubdProtocol
import StubdTestSupport
import Testing

/// With `STUBD_URL` set, the fixtures must run against the test's own folder or say why not
/// (issue 14, item 2): another folder behind the URL would fail tests with 404s that hide the cause.
@Suite struct RemoteFolderCheckTests {
    @Test func aDaemonServingAnotherFolderFailsAtOnceNamingBothFolders() async throws {
        let other = try TempStubs(["hello.json": #"{"hello": "world"}"#])
        try await withServer(other.url) { daemon in
            do {
                let started = try await StubFixture.start(stubs: exampleStubs, environment: ["STUBD_URL": daemon.baseURL.absoluteString])
                await started.teardown()
                Issue.record("started against a daemon serving \(other.url.path)")
            } catch {
                let text = "\(error)"
                #expect(text.contains(other.url.path), "names the daemon's folder: \(text)")
                #expect(text.contains(exampleStubs.path), "names the test's folder: \(text)")
                #expect(text.contains("stubd serve --stubs \(exampleStubs.path)"), "says what to run: \(text)")
            }
        }
    }

    @Test func aDaemonServingACopyOfTheFolderIsAccepted() async throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: exampleStubs, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try await withServer(copy) { daemon in
            let started = try await StubFixture.start(stubs: exampleStubs, environment: ["STUBD_URL": daemon.baseURL.absoluteString])
            #expect(started.description.contains("session"))
            let r = try await get(started.control.baseURL, "/data/2.5/weather?q=London&appid=k")
            #expect(r.status == 200)
            await started.teardown()
        }
    }

    @Test func healthReportsTheFolderAndAFingerprintThatFollowsEdits() async throws {
        let stubs = try TempStubs(["a.json": #"{"a": 1}"#])
        let before = try #require(StubsFingerprint.of(folder: stubs.url))
        try await withServer(stubs.url) { server in
            let health = try await StubdClient(baseURL: server.baseURL).health()
            #expect(health.stubs?.fingerprint == before)
            #expect(health.stubs?.folder == stubs.url.standardizedFileURL.path)
        }
        try stubs.write("a.json", #"{"a": 2}"#)
        #expect(StubsFingerprint.of(folder: stubs.url) != before, "one changed byte changes the fingerprint")
        try stubs.write(".hidden", "x")
        #expect(StubsFingerprint.of(folder: stubs.url)?.files == 1, "dot-files are not served, so not counted")
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import Testing

/// A test must never pass or fail for the wrong reason (issue 14).
@Suite struct NoSilentPassTests {
    @Test(arguments: ["brokn", "GET /api/{key}/conditons/**", "GET /api/KEY/conditions/q/CA/Atlantis.json", "/nowhere"])
    func anUnknownHitTargetIsA404NamingTheNearest(target: String) async throws {
        try await withServer(exampleStubs) { server in
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let r = try await get(server.baseURL, "/__stubd/hits?route=\(encoded)")
            #expect(r.status == 404, "\(target) → \(r.status) \(r.text)")
            #expect(r.text.contains("names no route"))
            let wait = try await get(server.baseURL, "/__stubd/hits/wait?route=\(encoded)&count=1&timeout=5")
            #expect(wait.status == 404, "hits/wait answers at once instead of waiting for a route that cannot exist")
            await #expect {
                _ = try await server.hits(target)
            } throws: { error in
                guard case StubdError.unknownRoute(let route, let nearest) = error else { return false }
                return route == target && !nearest.isEmpty
            }
        }
    }

    @Test func theMessageNamesTheNearestRoute() async throws {
        try await withServer(exampleStubs) { server in
            do {
                _ = try await server.waitForHits("londn", count: 1, timeout: .seconds(5))
                Issue.record("waited for a route that does not exist")
            } catch {
                #expect("\(error)".contains("No route 'londn'"), "\(error)")
                #expect("\(error)".contains("did you mean 'london'"), "\(error)")
            }
        }
    }

    @Test(arguments: ["london", "GET /api/{key}/conditions/q/{state}/{city}.json", "GET /api/{key}/**",
                      "GET /api/KEY/conditions/q/CA/San_Francisco.json", "GET /api/KEY/conditions/q/CA/San_Francisco",
                      "/bench/payload.json", "GET /data/2.5/weather"])
    func everyWayOfNamingARouteStillCounts(target: String) async throws {
        try await withServer(exampleStubs) { server in
            let hits = try await server.hits(target)
            #expect(hits == 0)
        }
    }
}

@Suite struct DuplicateNameTests {
    @Test func twoRoutesUnderOneNameDoNotLoad() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - name: one
                request: { path: /a }
                response: { status: 200 }
              - name: one
                request: { path: /b }
                response: { status: 201 }
            """])
        #expect {
            _ = try StubCatalog.load(stubs: stubs.url)
        } throws: { error in
            let text = "\(error)"
            return text.contains("stubd.yml:5:") && text.contains("route name 'one' is used twice: at stubd.yml:2 and here")
        }
    }

    @Test func aRuntimeStubCannotTakeAUsedName() async throws {
        try await withServer(exampleStubs) { server in
            let add = URL(string: server.baseURL.absoluteString + "/__stubd/stubs")!
            let r = try await http(add, method: "POST", body: #"{"name": "london", "request": {"path": "/x"}, "response": {"status": 200}}"#)
            #expect(r.status == 400)
            #expect(r.text.contains("route name 'london' is already used by stubd.yml:"), "\(r.text)")
            #expect(try await http(add, method: "POST", body: #"{"name": "mine", "request": {"path": "/x"}, "response": {"status": 200}}"#).status == 201)
            #expect(try await http(add, method: "POST", body: #"{"name": "mine", "request": {"path": "/y"}, "response": {"status": 200}}"#).status == 400)
        }
    }
}

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

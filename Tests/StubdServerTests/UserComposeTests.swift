import Foundation
import StubdTestSupport
import Testing

/// The compose file for users' repositories (issue 45 item 2) and the remote-only helpers' place in
/// the dependency graph (item 1), as their checks see them: `scripts/check-user-compose` validates
/// Examples/compose/docker-compose.yml from a folder outside the repository and refuses a file that
/// needs this repository or installs C libraries; `scripts/client_side_graph.py` refuses remote-only
/// helpers that reach the server, and in-process helpers that reach swift-crypto, swift-certificates or
/// OpenAPIKit with the package's traits off (`traits: []`, the light in-process server).
@Suite struct UserComposeTests {
    static let check = repositoryRoot.appendingPathComponent("scripts/check-user-compose").path
    static let graph = repositoryRoot.appendingPathComponent("scripts/client_side_graph.py").path
    static let usersFile = repositoryRoot.appendingPathComponent("Examples/compose/docker-compose.yml")

    @Test func theUsersComposeFileValidatesFromAFolderOutsideTheRepository() throws {
        let r = try run("/bin/bash", [Self.check])
        #expect(r.status == 0, "\(r.output)\(r.error)")
        #expect(r.output.contains("ok   docker-compose config -q, from "), "\(r.output)")
        #expect(r.output.contains("ok   image ghcr.io/"), "\(r.output)")
        #expect(!r.output.contains(repositoryRoot.path + "/"), "\(r.output)")
    }

    @Test func theRepositorysOwnComposeFileIsRefusedForUsersNamingWhy() throws {
        let r = try run("/bin/bash", [Self.check, repositoryRoot.appendingPathComponent("docker-compose.yml").path])
        #expect(r.status == 1, "\(r.output)\(r.error)")
        #expect(r.output.contains("FAIL service stubd builds an image"), "\(r.output)")
        #expect(r.output.contains("stubd's image is 'stubd:local'"), "\(r.output)")
        #expect(r.output.contains("FAIL tests installs something"), "\(r.output)")
    }

    @Test func aLatestTagAnInstallAndAMissingHealthcheckAreEachNamed() throws {
        let text = try String(contentsOf: Self.usersFile, encoding: .utf8)
            .replacingOccurrences(of: #"/stubd:0"#, with: "/stubd:latest-was-0")
            .replacingOccurrences(of: #"command: ["swift", "test""#, with: #"command: ["bash", "-c", "apt-get install -y libmicrohttpd-dev && swift test""#)
            .replacingOccurrences(of: "/__stubd/health", with: "/")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-compose-\(UUID().uuidString).yml")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try run("/bin/bash", [Self.check, file.path])
        #expect(r.status == 1, "\(r.output)\(r.error)")
        #expect(r.output.contains("FAIL stubd's image is 'ghcr.io/"), "\(r.output)")
        #expect(r.output.contains("FAIL tests installs something"), "\(r.output)")
        #expect(r.output.contains("FAIL stubd's healthcheck is not the admin health endpoint"), "\(r.output)")
    }

    /// A manifest as `swift package dump-package` writes it, reduced to the client side. `serverCondition`
    /// is the helpers' condition on Stubd (issue 60: the platforms where it runs, and the InProcessServer trait).
    static func manifest(serverCondition: String = #"{"platformNames": ["linux", "macos"], "traits": ["InProcessServer"]}"#,
                         serverDependsOn server: String = "") -> String {
        """
        {"traits": [{"name": "default", "enabledTraits": ["TLS", "InProcessServer"]}, {"name": "TLS", "enabledTraits": []},
                    {"name": "InProcessServer", "enabledTraits": []}],
         "targets": [
          {"name": "CMicroHTTPD", "type": "system", "dependencies": []},
          {"name": "StubdProtocol", "type": "regular", "dependencies": [{"product": ["HTTPTypes", "swift-http-types", null, null]}]},
          {"name": "StubdClient", "type": "regular", "dependencies": [{"byName": ["StubdProtocol", null]}]},
          {"name": "StubdInProcess", "type": "regular", "dependencies": [{"byName": ["StubdClient", null]}]},
          {"name": "Stubd", "type": "regular", "dependencies": [{"byName": ["CMicroHTTPD", null]}, {"byName": ["StubdClient", null]}\(server)]},
          {"name": "StubdXCTest", "type": "regular", "dependencies": [
            {"target": ["Stubd", \(serverCondition)]}, {"byName": ["StubdClient", null]}, {"byName": ["StubdInProcess", null]}]},
          {"name": "StubdTesting", "type": "regular", "dependencies": [
            {"target": ["Stubd", \(serverCondition)]}, {"byName": ["StubdClient", null]}, {"byName": ["StubdInProcess", null]}]}
        ]}
        """
    }

    static func graph(_ manifest: String) throws -> (status: Int32, output: String, error: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-manifest-\(UUID().uuidString).json")
        try Data(manifest.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run("/bin/bash", ["-c", "python3 \"$0\" < \"$1\"", Self.graph, file.path])
    }

    @Test func helpersReachingTheServerOnlyThroughItsTraitPass() throws {
        let r = try Self.graph(Self.manifest())
        #expect(r.status == 0, "\(r.output)\(r.error)")
        #expect(r.output.contains("ok   StubdXCTest without traits: nothing of the server, no system C library, on every platform"), "\(r.output)")
    }

    @Test func helpersReachingTheServerWithoutItsTraitFailNamingThePath() throws {
        let r = try Self.graph(Self.manifest(serverCondition: #"{"platformNames": ["linux", "macos"]}"#))
        #expect(r.status == 1, "\(r.output)\(r.error)")
        #expect(r.output.contains("FAIL linux: StubdXCTest without traits reaches CMicroHTTPD: StubdXCTest -> Stubd -> CMicroHTTPD"), "\(r.output)")
        #expect(!r.output.contains("FAIL ios"), "\(r.output)")
    }

    @Test func theServerReachingTheCAOnlyThroughTheTLSTraitPasses() throws {
        let r = try Self.graph(Self.manifest(serverDependsOn: #", {"product": ["X509", "swift-certificates", null, {"platformNames": [], "traits": ["TLS"]}]}"#))
        #expect(r.status == 0, "\(r.output)\(r.error)")
        #expect(r.output.contains("ok   linux: Stubd without traits reaches none of Crypto, OpenAPIKit, OpenAPIKit30, X509"), "\(r.output)")
        #expect(r.output.contains("ok   macos: StubdTesting without traits reaches none of"), "\(r.output)")
    }

    @Test func theServerReachingTheCAWithoutATraitFailsNamingThePathAndTheTrait() throws {
        let r = try Self.graph(Self.manifest(serverDependsOn: #", {"product": ["X509", "swift-certificates", null, null]}"#))
        #expect(r.status == 1, "\(r.output)\(r.error)")
        #expect(r.output.contains("FAIL linux: Stubd without traits reaches X509 (give it the TLS trait's condition): Stubd -> X509"), "\(r.output)")
        #expect(r.output.contains("FAIL macos: Stubd without traits reaches X509"), "\(r.output)")
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdInProcess
import StubdClient
import StubdTesting
import Testing
import WeatherService

/// The same app against the same Stubs, with Swift Testing.
@Suite struct WeatherServiceTests {
    /// Every canned conditions document, read from the catalog: a new stub file is a new test case.
    static let conditionsRoutes: [String] = {
        guard let catalog = try? StubCatalog.load(stubs: Fixtures.stubs) else { return [] }
        return catalog.routes.map(\.signature).filter { $0.contains("/conditions/") }.sorted()
    }()

    @Test func catalogHasConditionsStubs() throws {
        _ = try StubCatalog.load(stubs: Fixtures.stubs)
        #expect(Self.conditionsRoutes.count >= 4, "\(Self.conditionsRoutes)")
    }

    @Test(arguments: conditionsRoutes)
    func everyCannedConditionsStubDecodes(_ signature: String) async throws {
        // "GET /api/{key}/conditions/q/CA/San_Francisco.json" → state "CA", city "San_Francisco".
        let parts = signature.split(separator: "/")
        let state = String(try #require(parts.dropLast().last))
        var city = String(try #require(parts.last))
        if city.hasSuffix(".json") { city.removeLast(".json".count) }

        try await withStubServer(stubs: Fixtures.stubs) { server in
            let result = try await Fixtures.service(server).conditions(state: state, city: city)
            let conditions = try result.get()
            #expect(!conditions.city.isEmpty)
            #expect(!conditions.weather.isEmpty)
            #expect((-80.0...140.0).contains(conditions.temperatureF))
            let concrete = signature.replacingOccurrences(of: "{key}", with: Fixtures.apiKey)
            await expectHits(server, concrete, 1)
        }
    }

    @Test func parallelSessionsSeeOnlyTheirOwnHits() async throws {
        try await withStubServer(stubs: Fixtures.stubs) { server in
            let west = server.session("west-\(UUID().uuidString)")
            let east = server.session("east-\(UUID().uuidString)")

            async let westDone: Void = Self.fire(3, at: west, state: "CA", city: "San_Francisco")
            async let eastDone: Void = Self.fire(2, at: east, state: "NY", city: "New_York")
            _ = await (westDone, eastDone)

            await expectHits(west, Fixtures.conditionsPath("CA", "San_Francisco"), 3)
            await expectHits(west, Fixtures.conditionsPath("NY", "New_York"), 0)
            await expectHits(east, Fixtures.conditionsPath("NY", "New_York"), 2)
            await expectHits(east, Fixtures.conditionsPath("CA", "San_Francisco"), 0)
            await expectHits(server, Fixtures.anyConditions, 0)
        }
    }

    /// Fires `count` calls without waiting for them, then waits for the server to have seen them all.
    private static func fire(_ count: Int, at server: any StubControl, state: String, city: String) async {
        let service = Fixtures.service(server)
        for _ in 0..<count {
            service.fetchConditions(state: state, city: city, success: { _ in }, failure: { _ in })
        }
        await confirmHits(server, Fixtures.conditionsPath(state, city), count: count)
    }

    @Test func notAnHTTPURLIsABadConfiguration() async throws {
        let error = await #expect(throws: StubdError.self) {
            _ = try await StubFixture.startRemote(stubs: Fixtures.stubs, environment: ["STUBD_URL": "localhost:8080"])
        }
        #expect(error?.description.contains("STUBD_URL") == true, "\(String(describing: error))")
    }

    @Test func unreachableDaemonFailsFastNamingTheURL() async throws {
        let error = await #expect(throws: StubdError.self) {
            _ = try await StubFixture.startRemote(stubs: Fixtures.stubs, environment: ["STUBD_URL": "http://127.0.0.1:9"])
        }
        #expect(error?.description.contains("http://127.0.0.1:9") == true, "\(String(describing: error))")
    }

    @Test func brokenStubsListEveryProblem() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("{\"temp_f\": }".utf8).write(to: root.appendingPathComponent("a.json"))
        try Data("[1, 2,".utf8).write(to: root.appendingPathComponent("b.json"))

        let error = #expect(throws: CatalogLoadError.self) {
            _ = try StubFixture.startWithoutSocket(stubs: root)
        }
        #expect(error?.problems.map(\.file).sorted() == ["a.json", "b.json"])
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdClient
import WeatherService

/// What every test here shares: the repository's Stubs folder, and the way to each server's `urlSession`
/// (answered without a socket where the engine runs in the test process, over the network to a daemon).
enum Fixtures {
    /// `<repo>/Stubs`, found from this file: Examples/WeatherApp/Tests/WeatherServiceTests/Fixtures.swift.
    static let stubs: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Stubs", isDirectory: true)
    }()

    /// `<repo>/Examples/graphql/Stubs`: the app's GraphQL API (`AccountTests`).
    static let graphQLStubs: URL = stubs.deletingLastPathComponent().appendingPathComponent("Examples/graphql/Stubs", isDirectory: true)

    /// The Weather Underground key used throughout; the quota counts per key.
    static let apiKey = "KEY"

    /// Every conditions stub, whatever the state and city.
    static let anyConditions = "GET /api/{key}/conditions/q/{state}/{city}.json"

    /// The concrete path the app requests for one place.
    static func conditionsPath(_ state: String, _ city: String) -> String {
        "GET /api/\(apiKey)/conditions/q/\(state)/\(city).json"
    }

    static func service(_ server: any StubControl) -> WeatherService {
        WeatherService(baseURL: server.baseURL, apiKey: apiKey, session: server.urlSession)
    }

    static func stations(_ server: any StubControl) -> StationService {
        StationService(baseURL: server.baseURL, session: server.urlSession)
    }

    static func account(_ server: any StubControl) -> AccountService {
        AccountService(endpoint: server.baseURL.appendingPathComponent("graphql"), session: server.urlSession)
    }

    static func shop(_ server: any StubControl) -> StationShop {
        StationShop(baseURL: server.baseURL, session: server.urlSession)
    }
}

extension WeatherService {
    /// `fetchConditions` as one value, waited for with a deadline (the app's API stays completion blocks).
    func conditions(state: String, city: String) async throws -> Result<Conditions, WeatherError> {
        try await awaitCompletion { done in
            fetchConditions(state: state, city: city, success: { done(.success($0)) }, failure: { done(.failure($0)) })
        }
    }
}

/// The completion-block calls as values, each waited for with a deadline.
extension StationService {
    func register(_ station: Station) async throws -> Result<Station, WeatherError> {
        try await awaitCompletion { done in register(station, completion: done) }
    }

    func stations() async throws -> Result<[Station], WeatherError> {
        try await awaitCompletion { done in stations(completion: done) }
    }
}

extension AccountService {
    func me() async throws -> Result<Account, WeatherError> {
        try await awaitCompletion { done in me(completion: done) }
    }
}

extension StationShop {
    func addToCart(_ item: String) async throws -> Result<StationOrder, WeatherError> {
        try await awaitCompletion { done in addToCart(item, completion: done) }
    }

    func pay() async throws -> Result<StationOrder, WeatherError> {
        try await awaitCompletion { done in pay(completion: done) }
    }

    func order() async throws -> Result<StationOrder, WeatherError> {
        try await awaitCompletion { done in order(completion: done) }
    }
}

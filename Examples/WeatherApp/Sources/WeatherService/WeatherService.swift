public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Current conditions at one place, as the app shows them.
public struct Conditions: Sendable, Equatable {
    /// `current_observation.temp_f`
    public let temperatureF: Double
    /// `current_observation.weather`, e.g. "Partly Cloudy".
    public let weather: String
    /// `current_observation.display_location.city`, e.g. "San Francisco".
    public let city: String

    /// A value, as decoded or for comparison in tests.
    public init(temperatureF: Double, weather: String, city: String) {
        self.temperatureF = temperatureF
        self.weather = weather
        self.city = city
    }
}

/// Why a weather call failed, in the terms the app reacts to.
public enum WeatherError: Error, Sendable, Equatable {
    /// Any other non-2xx answer.
    case http(status: Int)
    /// 404: no such place (or no such endpoint).
    case notFound
    /// 429: the API key's quota is used up; try again in `retryAfter` seconds (`Retry-After`).
    case quotaExceeded(retryAfter: Int)
    /// A 2xx answer whose body is not the conditions document.
    case decoding(String)
    /// The request never got an HTTP answer.
    case transport(URLError.Code)
    /// A GraphQL answer's first error (`errors[0].message`): GraphQL servers answer 200 with it.
    case graphQL(String)
}

/// An app-style Weather Underground client: completion blocks, URLSession, no async.
///
/// ```swift
/// let service = WeatherService(baseURL: URL(string: "https://api.wunderground.com")!, apiKey: key)
/// service.fetchConditions(state: "CA", city: "San_Francisco") { show($0) } failure: { alert($0) }
/// ```
public final class WeatherService: Sendable {
    /// The API root; a stub server's (session) base URL in tests.
    public let baseURL: URL
    /// Goes into the path, as Weather Underground wanted it: `/api/{key}/…`.
    public let apiKey: String
    private let session: URLSession

    /// A client of the API at `baseURL`.
    public init(baseURL: URL, apiKey: String, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.session = session
    }

    /// `GET {base}/api/{key}/conditions/q/{state}/{city}.json`; calls exactly one of the blocks, on a
    /// URLSession queue.
    public func fetchConditions(state: String, city: String,
                                success: @escaping @Sendable (Conditions) -> Void,
                                failure: @escaping @Sendable (WeatherError) -> Void) {
        let url = conditionsURL(state: state, city: city)
        session.dataTask(with: url) { data, response, error in
            switch Self.interpret(data: data, response: response, error: error) {
            case .success(let conditions): success(conditions)
            case .failure(let error): failure(error)
            }
        }.resume()
    }

    /// Where `fetchConditions` sends its request.
    public func conditionsURL(state: String, city: String) -> URL {
        baseURL.appendingPathComponent("api").appendingPathComponent(apiKey)
            .appendingPathComponent("conditions").appendingPathComponent("q")
            .appendingPathComponent(state).appendingPathComponent("\(city).json")
    }

    /// Maps one URLSession answer to conditions or the error the app shows.
    static func interpret(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<Conditions, WeatherError> {
        if let error {
            return .failure(.transport((error as? URLError)?.code ?? .unknown))
        }
        guard let http = response as? HTTPURLResponse else { return .failure(.transport(.badServerResponse)) }
        switch http.statusCode {
        case 200..<300:
            do {
                let document = try JSONDecoder().decode(ConditionsDocument.self, from: data ?? Data())
                let o = document.current_observation
                return .success(Conditions(temperatureF: o.temp_f, weather: o.weather, city: o.display_location.city))
            } catch {
                return .failure(.decoding(String(describing: error)))
            }
        case 404:
            return .failure(.notFound)
        case 429:
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return .failure(retryAfter.map { .quotaExceeded(retryAfter: $0) } ?? .http(status: 429))
        default:
            return .failure(.http(status: http.statusCode))
        }
    }
}

/// The slice of Weather Underground's conditions document the app reads.
private struct ConditionsDocument: Decodable {
    struct Observation: Decodable {
        struct Place: Decodable { let city: String }
        let display_location: Place
        let weather: String
        let temp_f: Double
    }
    let current_observation: Observation
}

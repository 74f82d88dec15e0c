public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The app's "my stations" screen: registers a weather station with OpenWeatherMap and lists the
/// ones registered (`POST` and `GET /data/3.0/stations`), with completion blocks.
public final class StationService: Sendable {
    /// The API root; a stub server's (session) base URL in tests.
    public let baseURL: URL
    private let session: URLSession

    /// A client of the API at `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// `POST /data/3.0/stations`: `completion` gets the station as registered, with the id the API gave it.
    public func register(_ station: Station, completion: @escaping @Sendable (Result<Station, WeatherError>) -> Void) {
        JSONCall.send("POST", stationsURL, body: station, session: session, completion: completion)
    }

    /// `GET /data/3.0/stations`: every station registered with this key.
    public func stations(completion: @escaping @Sendable (Result<[Station], WeatherError>) -> Void) {
        JSONCall.send("GET", stationsURL, session: session, completion: completion)
    }

    // No `?appid=`: a stubd resource reads every query name but its paging ones as a filter on the
    // items' fields, so the key would filter every station out (the real API wants it).
    private var stationsURL: URL { baseURL.appendingPathComponent("data/3.0/stations") }
}

/// A personal weather station registered with OpenWeatherMap's Stations API (`/data/3.0/stations`).
public struct Station: Sendable, Equatable, Codable {
    /// Given by the API when the station is registered; nil before.
    public let id: String?
    /// The app's own id for it, e.g. "SF_BACKYARD".
    public let externalID: String
    /// Shown in the app's list.
    public let name: String
    public let latitude: Double
    public let longitude: Double

    /// A station as the app registers it (no id yet) or as the API lists it.
    public init(id: String? = nil, externalID: String, name: String, latitude: Double, longitude: Double) {
        self.id = id
        self.externalID = externalID
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    enum CodingKeys: String, CodingKey {
        case id, name, latitude, longitude
        case externalID = "external_id"
    }
}

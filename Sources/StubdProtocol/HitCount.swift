/// `GET /__stubd/hits?route=…`: one route's (or pattern's, or concrete path's) hits.
public struct HitCount: Sendable, Equatable, Codable {
    public let route: String
    public let hits: Int
    public init(route: String, hits: Int) { self.route = route; self.hits = hits }
}

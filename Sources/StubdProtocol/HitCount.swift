/// `GET /__stubd/hits?route=…`: one route's (or pattern's, or concrete path's) hits.
public struct HitCount: Sendable, Equatable, Codable {
    /// What was asked for, as sent: a route name, a pattern (`GET /api/{key}/**`) or a concrete path.
    public let route: String
    /// Requests of the session it matched, since the session began or was last reset.
    public let hits: Int
    /// A count as given.
    public init(route: String, hits: Int) { self.route = route; self.hits = hits }
}

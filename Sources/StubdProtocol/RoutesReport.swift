/// `GET /__stubd/routes`: the catalog in force.
public struct RoutesReport: Sendable, Equatable, Codable {
    public let routes: [RouteDescription]
    public init(routes: [RouteDescription]) { self.routes = routes }
}

/// `GET /__stubd/routes`: the catalog in force.
public struct RoutesReport: Sendable, Equatable, Codable {
    /// Every route of the catalog: the manifest's routes and the stub files (runtime stubs are in `GET /__stubd/stubs`).
    public let routes: [RouteDescription]
    /// A report as given.
    public init(routes: [RouteDescription]) { self.routes = routes }
}

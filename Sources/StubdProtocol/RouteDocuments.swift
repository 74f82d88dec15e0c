import Foundation

/// A route as the admin API shows it (`GET /__stubd/routes`, `GET /__stubd/stubs`).
public struct RouteDescription: Sendable, Equatable, Codable {
    /// For a runtime stub: the id `DELETE /__stubd/stubs/{id}` takes.
    public let id: String?
    public let name: String?
    /// `GET`, or `ANY`.
    public let method: String
    public let pattern: String
    public let signature: String
    /// `stubd.yml:42`, a file's path, or `runtime stub s3`.
    public let source: String
    public let priority: Int
    public let responses: Int
    public let quotas: [String]?
    public let times: Int?
    /// True when an answer is a template, rendered per request.
    public let templated: Bool?

    public init(id: String? = nil, name: String?, method: String, pattern: String, signature: String, source: String,
                priority: Int, responses: Int, quotas: [String]?, times: Int?, templated: Bool? = nil) {
        self.id = id; self.name = name; self.method = method; self.pattern = pattern; self.signature = signature
        self.source = source; self.priority = priority; self.responses = responses; self.quotas = quotas; self.times = times
        self.templated = templated
    }
}

/// `GET /__stubd/routes`: the catalog in force.
public struct RoutesReport: Sendable, Equatable, Codable {
    public let routes: [RouteDescription]
    public init(routes: [RouteDescription]) { self.routes = routes }
}

/// `GET /__stubd/stubs`: the session's runtime stubs.
public struct RuntimeStubsReport: Sendable, Equatable, Codable {
    public let stubs: [RouteDescription]
    public init(stubs: [RouteDescription]) { self.stubs = stubs }
}

/// `POST /__stubd/stubs` (201): the new runtime stub.
public struct StubAdded: Sendable, Equatable, Codable {
    public let id: String
    public let route: String
    public let session: String
    public init(id: String, route: String, session: String) { self.id = id; self.route = route; self.session = session }
}

/// `POST /__stubd/reset`: what was reset.
public struct ResetDone: Sendable, Equatable, Codable {
    public let reset: Bool
    public let session: String
    public init(session: String) { self.reset = true; self.session = session }
}

/// A route as the admin API shows it (`GET /__stubd/routes`, `GET /__stubd/stubs`).
public struct RouteDescription: Sendable, Equatable, Codable {
    /// For a runtime stub: the id `DELETE /__stubd/stubs/{id}` takes.
    public let id: String?
    /// The manifest's `name:`; nil for a route without one and for a stub file.
    public let name: String?
    /// `GET`, or `ANY`.
    public let method: String
    /// The path pattern: `/api/{key}/conditions/q/CA/{city}.json`, `/files/**`.
    public let pattern: String
    /// The method and pattern: `GET /api/{key}/conditions/q/CA/{city}.json`.
    public let signature: String
    /// `stubd.yml:42`, a file's path, or `runtime stub s3`.
    public let source: String
    /// Lower wins: runtime stubs 1, manifest routes 5, stub files 10, unless the route sets `priority:`.
    public let priority: Int
    /// How many answers it has; more than one is a sequence (`responses:`).
    public let responses: Int
    /// The names of the quotas that count it; nil when none does.
    public let quotas: [String]?
    /// How many times it answers before the next matching route does (`times:`); nil for no limit.
    public let times: Int?
    /// True when an answer is a template, rendered per request.
    public let templated: Bool?
    /// The faults its answers break the connection with (`connection_reset`, `empty_response`,
    /// `truncated_body`, `hang`), in order and once each; nil when none does.
    public let faults: [String]?

    /// A route's description as given.
    public init(id: String? = nil, name: String?, method: String, pattern: String, signature: String, source: String,
                priority: Int, responses: Int, quotas: [String]?, times: Int?, templated: Bool? = nil, faults: [String]? = nil) {
        self.id = id; self.name = name; self.method = method; self.pattern = pattern; self.signature = signature
        self.source = source; self.priority = priority; self.responses = responses; self.quotas = quotas; self.times = times
        self.templated = templated; self.faults = faults
    }

    /// True when an answer drops the connection before a whole answer (a reset, an empty or cut
    /// answer): a client may send the request again by itself.
    public var dropsConnection: Bool {
        faults?.contains { ["connection_reset", "empty_response", "truncated_body"].contains($0) } ?? false
    }
}

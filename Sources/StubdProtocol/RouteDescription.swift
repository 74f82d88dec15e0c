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

/// `POST /__stubd/stubs`: a runtime stub, in the shape of a manifest route (see the manifest's
/// `routes:`). The server reads it with the manifest's own parser, so its errors carry positions.
public struct RuntimeStubDocument: Codable, Sendable, Equatable {
    public struct Request: Codable, Sendable, Equatable {
        public struct Body: Codable, Sendable, Equatable {
            public var contains: String
            public init(contains: String) { self.contains = contains }
        }
        public var method: String
        public var path: String
        public var query: [String: String]?
        public var headers: [String: String]?
        public var body: Body?
        public init(method: String, path: String, query: [String: String]? = nil, headers: [String: String]? = nil, body: Body? = nil) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
        }
    }

    public struct Response: Codable, Sendable, Equatable {
        public var status: Int
        public var headers: [String: String]?
        public var file: String?
        public var body: String?
        public var json: EmbeddedJSON?
        public var delay: String?
        public var fault: String?
        /// The body and headers are Handlebars templates, rendered per request.
        public var template: Bool?
        public init(status: Int, headers: [String: String]? = nil, file: String? = nil, body: String? = nil,
                    json: EmbeddedJSON? = nil, delay: String? = nil, fault: String? = nil, template: Bool? = nil) {
            self.template = template
            self.status = status
            self.headers = headers
            self.file = file
            self.body = body
            self.json = json
            self.delay = delay
            self.fault = fault
        }
    }

    public var name: String?
    public var request: Request
    /// One answer (`response`) or a sequence (`responses`), never both.
    public var response: Response?
    public var responses: [Response]?
    public var cycle: Bool?
    public var times: Int?
    public var priority: Int?

    public init(name: String? = nil, request: Request, response: Response? = nil, responses: [Response]? = nil,
                cycle: Bool? = nil, times: Int? = nil, priority: Int? = nil) {
        self.name = name
        self.request = request
        self.response = response
        self.responses = responses
        self.cycle = cycle
        self.times = times
        self.priority = priority
    }
}

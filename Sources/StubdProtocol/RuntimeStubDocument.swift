public import HTTPTypes

/// `POST /__stubd/stubs`: a runtime stub, in the shape of a manifest route (see the manifest's
/// `routes:`). The server reads it with the manifest's own parser, so its errors carry positions.
///
/// Typed in Swift (`HTTPRequest.Method`, `HTTPResponse.Status`, `HTTPFields`, `Delay`, `Fault`),
/// written as the manifest spells it: the method and status as text and number, headers as a map.
public struct RuntimeStubDocument: Codable, Sendable, Equatable {
    /// Which requests the stub answers: a manifest route's `request:`.
    public struct Request: Codable, Sendable, Equatable {
        /// A condition on the request body.
        public struct Body: Codable, Sendable, Equatable {
            /// Text the body must contain.
            public var contains: String
            /// A condition that the body contains `contains`.
            public init(contains: String) { self.contains = contains }
        }
        /// `ANY` (`HTTPRequest.Method("ANY")`) answers every method.
        public var method: HTTPRequest.Method
        /// The path pattern: literal segments, `{param}` for any one segment, a trailing `/**`.
        public var path: String
        /// Query parameters that must be present with these values (`"*"`: with any value); unlisted ones are
        /// not checked, and nil checks none.
        public var query: [String: String]?
        /// Each must be present with this value; `"*"` means present with any value.
        public var headers: HTTPFields?
        /// A condition on the body; nil checks none.
        public var body: Body?
        /// A request condition as given.
        public init(method: HTTPRequest.Method, path: String, query: [String: String]? = nil, headers: HTTPFields? = nil,
                    body: Body? = nil) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
        }

        private enum CodingKeys: String, CodingKey { case method, path, query, headers, body }

        /// Writes the manifest's spelling: the method as text, the headers as a map.
        /// Writes the one-member object the manifest spells: `{"path": "id"}`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(method.rawValue, forKey: .method)
            try c.encode(path, forKey: .path)
            try c.encodeIfPresent(query, forKey: .query)
            if let headers { try headers.encodeAsHeaderMap(to: c.superEncoder(forKey: .headers)) }
            try c.encodeIfPresent(body, forKey: .body)
        }

        /// Reads the manifest's spelling; a method that is not an HTTP method token is a `DecodingError`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let text = try c.decode(String.self, forKey: .method)
            guard let method = HTTPRequest.Method(text) else {
                throw DecodingError.dataCorruptedError(forKey: .method, in: c, debugDescription: "'\(text)' is not an HTTP method")
            }
            self.method = method
            path = try c.decode(String.self, forKey: .path)
            query = try c.decodeIfPresent([String: String].self, forKey: .query)
            headers = c.contains(.headers) ? try HTTPFields(headerMapFrom: c.superDecoder(forKey: .headers)) : nil
            body = try c.decodeIfPresent(Body.self, forKey: .body)
        }
    }

    /// One answer: a manifest route's `response:`, or one step of its `responses:`.
    public struct Response: Codable, Sendable, Equatable {
        /// The status sent; a number on the wire.
        public var status: HTTPResponse.Status
        /// Headers sent with the answer, besides the content type the body implies.
        public var headers: HTTPFields?
        /// A file to send as the body, relative to the Stubs folder or its `__files/`.
        public var file: String?
        /// The body as text.
        public var body: String?
        /// The body as JSON, sent with a JSON content type.
        public var json: EmbeddedJSON?
        /// A wait before the answer is sent; nil for none.
        public var delay: Delay?
        /// A broken answer instead of this one (`connection_reset`, `hang`, …); nil for none.
        public var fault: Fault?
        /// The body and headers are Handlebars templates, rendered per request.
        public var template: Bool?
        /// An answer with the parts given; one of `file`, `body` and `json` at most.
        public init(status: HTTPResponse.Status, headers: HTTPFields? = nil, file: String? = nil, body: String? = nil,
                    json: EmbeddedJSON? = nil, delay: Delay? = nil, fault: Fault? = nil, template: Bool? = nil) {
            self.template = template
            self.status = status
            self.headers = headers
            self.file = file
            self.body = body
            self.json = json
            self.delay = delay
            self.fault = fault
        }

        // Written out, like JournalReport.Entry's, because two fields are not stored as they are
        // sent: the status goes as its number and the headers as the manifest's map.
        private enum CodingKeys: String, CodingKey { case status, headers, file, body, json, delay, fault, template }

        /// Writes the manifest's spelling: the status as its number, the headers as a map.
        /// Writes the one-member object the manifest spells: `{"path": "id"}`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(status.code, forKey: .status)
            if let headers { try headers.encodeAsHeaderMap(to: c.superEncoder(forKey: .headers)) }
            try c.encodeIfPresent(file, forKey: .file)
            try c.encodeIfPresent(body, forKey: .body)
            try c.encodeIfPresent(json, forKey: .json)
            try c.encodeIfPresent(delay, forKey: .delay)
            try c.encodeIfPresent(fault, forKey: .fault)
            try c.encodeIfPresent(template, forKey: .template)
        }

        /// Reads the manifest's spelling; a status outside 100–999 is a `DecodingError`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let code = try c.decode(Int.self, forKey: .status)
            // HTTPResponse.Status traps outside 0...999; the server's parser wants 100...599 anyway.
            guard (100...999).contains(code) else {
                throw DecodingError.dataCorruptedError(forKey: .status, in: c, debugDescription: "\(code) is not an HTTP status")
            }
            status = HTTPResponse.Status(code: code)
            headers = c.contains(.headers) ? try HTTPFields(headerMapFrom: c.superDecoder(forKey: .headers)) : nil
            file = try c.decodeIfPresent(String.self, forKey: .file)
            body = try c.decodeIfPresent(String.self, forKey: .body)
            json = try c.decodeIfPresent(EmbeddedJSON.self, forKey: .json)
            delay = try c.decodeIfPresent(Delay.self, forKey: .delay)
            fault = try c.decodeIfPresent(Fault.self, forKey: .fault)
            template = try c.decodeIfPresent(Bool.self, forKey: .template)
        }
    }

    /// The name hits, logs and the admin API know it by; nil to go by its signature.
    public var name: String?
    /// Which requests it answers.
    public var request: Request
    /// One answer (`response`) or a sequence (`responses`), never both.
    public var response: Response?
    /// A sequence: one answer per request in turn, the last repeating unless `cycle` is true.
    public var responses: [Response]?
    /// With `responses`: start again after the last answer instead of repeating it.
    public var cycle: Bool?
    /// Answer this many times, then let the next matching route answer; nil for no limit.
    public var times: Int?
    /// Lower wins; nil for a runtime stub's default, 1 (manifest routes 5, stub files 10).
    public var priority: Int?
    /// The scenario (state machine) the stub belongs to, as a manifest route's `scenario:`.
    public var scenario: String?
    /// The scenario's state the stub answers in (`whenState:`); nil for every state.
    public var whenState: String?
    /// The state the scenario moves to once the stub has answered (`thenState:`); nil to stay.
    public var thenState: String?
    /// The request value a keyed scenario keeps one state per (`scenarioKey:`); nil for one state.
    public var scenarioKey: ScenarioKey?

    /// Where a keyed scenario's key comes from, as a manifest route's `scenarioKey:` says it:
    /// `{ "path": "id" }`, `{ "query": "cart" }`, `{ "header": "X-Cart" }` or `{ "jsonPath": "$.order" }`.
    public enum ScenarioKey: Codable, Sendable, Hashable {
        /// A `{NAME}` segment of the route's path.
        case path(String)
        /// A query parameter.
        case query(String)
        /// A request header.
        case header(String)
        /// A value in the JSON body, as a JSONPath from its root (`$.order.id`).
        case jsonPath(String)

        private enum CodingKeys: String, CodingKey { case path, query, header, jsonPath }

        /// Writes the one-member object the manifest spells: `{"path": "id"}`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .path(let v): try c.encode(v, forKey: .path)
            case .query(let v): try c.encode(v, forKey: .query)
            case .header(let v): try c.encode(v, forKey: .header)
            case .jsonPath(let v): try c.encode(v, forKey: .jsonPath)
            }
        }

        /// Reads that object; one naming none of the four, or two of them, is a decoding error.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard c.allKeys.count == 1, let key = c.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "scenarioKey names one of path, query, header or jsonPath"))
            }
            let value = try c.decode(String.self, forKey: key)
            switch key {
            case .path: self = .path(value)
            case .query: self = .query(value)
            case .header: self = .header(value)
            case .jsonPath: self = .jsonPath(value)
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, request, response, responses, cycle, times, priority, scenario
        case whenState, thenState, scenarioKey
    }

    /// A runtime stub as given; the server checks it as it checks a manifest route.
    public init(name: String? = nil, request: Request, response: Response? = nil, responses: [Response]? = nil,
                cycle: Bool? = nil, times: Int? = nil, priority: Int? = nil,
                scenario: String? = nil, whenState: String? = nil, thenState: String? = nil,
                scenarioKey: ScenarioKey? = nil) {
        self.scenario = scenario
        self.scenarioKey = scenarioKey
        self.whenState = whenState
        self.thenState = thenState
        self.name = name
        self.request = request
        self.response = response
        self.responses = responses
        self.cycle = cycle
        self.times = times
        self.priority = priority
    }
}

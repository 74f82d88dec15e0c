import HTTPTypes

/// `POST /__stubd/stubs`: a runtime stub, in the shape of a manifest route (see the manifest's
/// `routes:`). The server reads it with the manifest's own parser, so its errors carry positions.
///
/// Typed in Swift (`HTTPRequest.Method`, `HTTPResponse.Status`, `HTTPFields`, `Delay`, `Fault`),
/// written as the manifest spells it: the method and status as text and number, headers as a map.
public struct RuntimeStubDocument: Codable, Sendable, Equatable {
    public struct Request: Codable, Sendable, Equatable {
        public struct Body: Codable, Sendable, Equatable {
            public var contains: String
            public init(contains: String) { self.contains = contains }
        }
        /// `ANY` (`HTTPRequest.Method("ANY")`) answers every method.
        public var method: HTTPRequest.Method
        public var path: String
        public var query: [String: String]?
        /// Each must be present with this value; `"*"` means present with any value.
        public var headers: HTTPFields?
        public var body: Body?
        public init(method: HTTPRequest.Method, path: String, query: [String: String]? = nil, headers: HTTPFields? = nil,
                    body: Body? = nil) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
        }

        private enum CodingKeys: String, CodingKey { case method, path, query, headers, body }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(method.rawValue, forKey: .method)
            try c.encode(path, forKey: .path)
            try c.encodeIfPresent(query, forKey: .query)
            if let headers { try headers.encodeAsHeaderMap(to: c.superEncoder(forKey: .headers)) }
            try c.encodeIfPresent(body, forKey: .body)
        }

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

    public struct Response: Codable, Sendable, Equatable {
        public var status: HTTPResponse.Status
        public var headers: HTTPFields?
        public var file: String?
        public var body: String?
        public var json: EmbeddedJSON?
        public var delay: Delay?
        public var fault: Fault?
        /// The body and headers are Handlebars templates, rendered per request.
        public var template: Bool?
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

import Foundation
public import HTTPTypes
public import StubdProtocol

// StubRoute looks like RuntimeStubDocument (StubdProtocol) on purpose but is not the same thing:
// this is what a test writes (defaults filled in, `.json(…)`/`.file(…)` builders, headers always
// present), that is the wire form, where a field left out means "the manifest's default" and JSON
// is embedded as it was written. `document()` is the one place one becomes the other.
/// A route added at run time, in the shape of a manifest route.
///
/// ```swift
/// StubRoute(.get("/flaky"), responses: [.status(503), .status(503), .file("ok.json")])
/// StubRoute(.post("/v1/reports"), response: .json(#"{"id": 7}"#, status: 201))
/// ```
public struct StubRoute: Sendable {
    /// `.connectionReset`, `.emptyResponse`, `.truncatedBody`, `.malformedJSON`, `.hang`.
    public typealias Fault = StubdProtocol.Fault
    /// `.fixed(.milliseconds(200))`, `.uniform(.milliseconds(50), .milliseconds(300))`, `.lognormal(median:sigma:)`.
    public typealias Delay = StubdProtocol.Delay

    /// What a request must look like.
    public struct Request: Sendable {
        /// `HTTPRequest.Method("ANY")` (what `.any(_:)` uses) matches every method.
        public var method: HTTPRequest.Method
        /// A manifest path: literal segments, `{name}` for any one segment, `**` at the end for the rest.
        public var path: String
        /// Exact values; `"*"` means present with any value.
        public var query: [String: String] = [:]
        /// Exact values; `"*"` means present with any value.
        public var headers: HTTPFields = [:]
        /// The body must contain this text.
        public var bodyContains: String?
        /// Names given to `header(_:_:)` that are not HTTP tokens: `document()` refuses the stub with them.
        var invalidHeaderNames: [String] = []

        /// A request with this method and path, and these query items and headers.
        public init(method: HTTPRequest.Method, path: String, query: [String: String] = [:], headers: HTTPFields = [:]) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
        }

        /// `GET path` (a `HEAD` matches it too), with these query items.
        public static func get(_ path: String, query: [String: String] = [:]) -> Request { Request(method: .get, path: path, query: query) }
        /// `POST path`.
        public static func post(_ path: String) -> Request { Request(method: .post, path: path) }
        /// `PUT path`.
        public static func put(_ path: String) -> Request { Request(method: .put, path: path) }
        /// `PATCH path`.
        public static func patch(_ path: String) -> Request { Request(method: .patch, path: path) }
        /// `DELETE path`.
        public static func delete(_ path: String) -> Request { Request(method: .delete, path: path) }
        /// `path` with any method.
        public static func any(_ path: String) -> Request { Request(method: StubRoute.anyMethod, path: path) }

        /// The same request, also requiring this header (`"*"`: present with any value).
        public func header(_ name: String, _ value: String) -> Request {
            var r = self
            StubRoute.add(name, value, to: &r.headers, invalid: &r.invalidHeaderNames)
            return r
        }
    }

    /// What to answer.
    public struct Response: Sendable {
        /// The status; 200 unless set.
        public var status: HTTPResponse.Status = .ok
        /// Headers sent with the answer, besides the content type the body implies.
        public var headers: HTTPFields = [:]
        /// A file under the stubs directory (or its `__files/`).
        public var file: String?
        /// The body as text.
        public var body: String?
        /// Raw JSON text, sent with a JSON content type.
        public var json: String?
        /// How long the server holds the answer before it sends it.
        public var delay: Delay?
        /// A broken answer instead of this one (a reset connection, a truncated body…).
        public var fault: Fault?
        /// The body and headers are templates (`{{request.path.zip}}`, `{{now}}`), rendered per request.
        public var template = false
        /// Names given to `header(_:_:)` that are not HTTP tokens: `document()` refuses the stub with them.
        var invalidHeaderNames: [String] = []

        /// An answer with any of its parts; one of `file`, `body` and `json` at most.
        public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], file: String? = nil, body: String? = nil,
                    json: String? = nil, delay: Delay? = nil, fault: Fault? = nil) {
            self.status = status
            self.headers = headers
            self.file = file
            self.body = body
            self.json = json
            self.delay = delay
            self.fault = fault
        }

        /// An empty answer with this status: `.status(503)`.
        public static func status(_ status: HTTPResponse.Status) -> Response { Response(status: status) }
        /// The file at `path` under the stubs folder (or its `__files/`): `.file("ok.json")`.
        public static func file(_ path: String, status: HTTPResponse.Status = .ok) -> Response { Response(status: status, file: path) }
        /// JSON text, sent as `application/json`: `.json(#"{"id": 7}"#, status: 201)`.
        public static func json(_ json: String, status: HTTPResponse.Status = .ok) -> Response { Response(status: status, json: json) }
        /// Plain text as the body.
        public static func text(_ body: String, status: HTTPResponse.Status = .ok) -> Response { Response(status: status, body: body) }
        /// A broken answer: `.fault(.connectionReset)`.
        public static func fault(_ fault: Fault) -> Response { Response(fault: fault) }

        /// A template answer: `.template(#"{"zip": "{{request.path.zip}}"}"#)`, sent as JSON.
        public static func template(_ text: String, status: HTTPResponse.Status = .ok,
                                    headers: HTTPFields = [.contentType: "application/json"]) -> Response {
            var r = Response(status: status, headers: headers, body: text)
            r.template = true
            return r
        }

        /// The same answer rendered as a template.
        public func templated() -> Response { var r = self; r.template = true; return r }

        /// The same answer after a delay.
        public func delayed(_ delay: Delay) -> Response { var r = self; r.delay = delay; return r }

        /// The same answer after a fixed delay: `.delayed(.milliseconds(200))`.
        public func delayed(_ duration: Duration) -> Response { delayed(.fixed(duration)) }

        /// The same answer with this header added (`header("X-Request-Id", "7")`).
        public func header(_ name: String, _ value: String) -> Response {
            var r = self
            StubRoute.add(name, value, to: &r.headers, invalid: &r.invalidHeaderNames)
            return r
        }
    }

    /// A method token the server reads as "any method"; "ANY" is a valid token, so this cannot fail.
    static let anyMethod = HTTPRequest.Method("ANY")!

    /// Adds a header named by a string; a name that is not an HTTP token is kept aside for
    /// `document()` to report, so a typo in a test fails with its name rather than a crash.
    static func add(_ name: String, _ value: String, to headers: inout HTTPFields, invalid: inout [String]) {
        if let typed = HTTPField.Name(name) { headers.append(HTTPField(name: typed, value: value)) } else { invalid.append(name) }
    }

    /// The name hit counts and coverage use; without one, the route's signature (`GET /flaky`).
    public var name: String?
    /// What a request must look like.
    public var request: Request
    /// The answers in turn; the last one repeats unless `cycle` is set.
    public var responses: [Response]
    /// Loop the sequence instead of repeating its last answer.
    public var cycle = false
    /// Answer this many times, then let the next matching route answer.
    public var times: Int?
    /// Lower wins; runtime stubs default to 1 (manifest routes 5, files 10).
    public var priority: Int?
    /// The scenario the route belongs to; see ``inScenario(_:key:when:then:)``.
    public var scenario: String?
    /// The scenario's state the route answers in; nil for every state.
    public var whenState: String?
    /// The state the route moves the scenario to once it has answered; nil to leave it.
    public var thenState: String?
    /// For a keyed scenario, the request value whose own state the route reads and moves
    /// (`scenarioKey:`): `.path("id")` keeps order 17's state apart from order 18's.
    public var scenarioKey: RuntimeStubDocument.ScenarioKey?

    /// The route in scenario `name` (`scenario:`, `scenarioKey:`, `whenState:`, `thenState:` of a
    /// manifest route):
    /// `StubRoute(.post("/pay"), response: .status(200)).inScenario("checkout", when: "has-item", then: "paid")`,
    /// or one state per order: `StubRoute(.post("/orders/{id}/pay"), response: .status(200)).inScenario("order", key: .path("id"), then: "paid")`.
    public func inScenario(_ name: String, key: RuntimeStubDocument.ScenarioKey? = nil,
                           when state: String? = nil, then next: String? = nil) -> StubRoute {
        var r = self
        r.scenario = name; r.scenarioKey = key; r.whenState = state; r.thenState = next
        return r
    }

    /// A route with one answer.
    public init(_ request: Request, response: Response, name: String? = nil, times: Int? = nil) {
        self.request = request
        self.responses = [response]
        self.name = name
        self.times = times
    }

    /// A route whose answers come in turn: `[.status(503), .status(503), .file("ok.json")]`.
    public init(_ request: Request, responses: [Response], cycle: Bool = false, name: String? = nil, times: Int? = nil) {
        self.request = request
        self.responses = responses
        self.cycle = cycle
        self.name = name
        self.times = times
    }

    /// The document the admin API takes (`POST /__stubd/stubs`): a manifest route.
    /// Throws `StubdError.invalidStub` when a `json:` answer is not valid JSON, rather than
    /// sending a stub that would answer something else.
    public func document() throws(StubdError) -> RuntimeStubDocument {
        if let bad = request.invalidHeaderNames.first {
            throw StubdError.invalidStub(route: "\(request.method) \(request.path)",
                                         problem: "its request's header name '\(bad)' is not an HTTP token")
        }
        var encoded: [RuntimeStubDocument.Response] = []
        for (i, r) in responses.enumerated() {
            if let bad = r.invalidHeaderNames.first {
                let which = responses.count == 1 ? "its response" : "response \(i + 1) of \(responses.count)"
                throw StubdError.invalidStub(route: "\(request.method) \(request.path)",
                                             problem: "\(which)'s header name '\(bad)' is not an HTTP token")
            }
            var json: EmbeddedJSON?
            if let text = r.json {
                do { json = try EmbeddedJSON(parsing: text) } catch {
                    let which = responses.count == 1 ? "its response" : "response \(i + 1) of \(responses.count)"
                    throw StubdError.invalidStub(route: "\(request.method) \(request.path)", problem: "\(which)'s json is \(error)")
                }
            }
            encoded.append(RuntimeStubDocument.Response(
                status: r.status, headers: r.headers.isEmpty ? nil : r.headers, file: r.file, body: r.body,
                json: json, delay: r.delay, fault: r.fault, template: r.template ? true : nil))
        }
        return RuntimeStubDocument(
            name: name,
            request: RuntimeStubDocument.Request(
                method: request.method, path: request.path,
                query: request.query.isEmpty ? nil : request.query,
                headers: request.headers.isEmpty ? nil : request.headers,
                body: request.bodyContains.map(RuntimeStubDocument.Request.Body.init(contains:))),
            response: encoded.count == 1 ? encoded[0] : nil,
            responses: encoded.count == 1 ? nil : encoded,
            cycle: cycle ? true : nil, times: times, priority: priority,
            scenario: scenario, whenState: whenState, thenState: thenState, scenarioKey: scenarioKey)
    }

    /// The document as JSON text (what `StubControl.addStub` sends).
    public func manifestJSON() throws(StubdError) -> String {
        String(decoding: AdminCoding.encode(try document()), as: UTF8.self)
    }
}

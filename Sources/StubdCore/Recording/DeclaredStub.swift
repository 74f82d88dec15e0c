package import Foundation
package import HTTPTypes
package import StubdProtocol
package import StubdEngine

/// A stub another tool declared (a WireMock mapping, a Postman example), as StubsRecorder writes
/// it: conditions rather than one request seen on the wire. Unlike a RecordedExchange nothing is
/// scrubbed or guessed: the conditions are the ones declared, translated to stubd's.
package struct DeclaredStub: Sendable {
    package var method: HTTPRequest.Method
    /// A stubd path: literal, `{name}` segments, a trailing `/**`.
    package var path: String
    /// The `{name}`s `path` holds on purpose (a convention file may carry them too).
    package var parameterNames: [String]
    /// Exact values; `"*"`: present with any value.
    package var query: [QueryItem]
    /// Exact values, names case-insensitive.
    package var headers: HTTPFields
    /// The body must be this JSON (order and spacing aside).
    package var requestJSON: JSONValue?
    /// Or the body must hold this text.
    package var requestContains: String?
    package var status: HTTPResponse.Status
    /// Every header declared (Content-Length and hop-by-hop headers left to the server).
    package var responseHeaders: HTTPFields
    package var responseBody: Data
    package var delay: Duration?
    /// A broken answer instead of this one (WireMock's `fault`): written as the route's `fault:`,
    /// so always a manifest route, never a convention file.
    package var fault: Fault?
    /// Lower wins, as in WireMock; nil for stubd's default.
    package var priority: Int?
    /// The route's `scenario:`, `whenState:` and `thenState:` (WireMock's scenarioName,
    /// requiredScenarioState, newScenarioState).
    package var scenario: ScenarioStep?
    /// The name the tool gave it (a WireMock mapping's `name`, a Postman example's), as written
    /// there: the route is named after it (made safe as a file name, and unique), not `rec-<hash>`.
    package var name: String?
    /// A request the route must answer: the written route is checked against it, and the import's
    /// last step checks the whole folder answers it.
    package var sample: RequestHead

    package init(method: HTTPRequest.Method, path: String, parameterNames: [String] = [], query: [QueryItem] = [],
                 headers: HTTPFields = HTTPFields(), requestJSON: JSONValue? = nil, requestContains: String? = nil,
                 status: HTTPResponse.Status, responseHeaders: HTTPFields = HTTPFields(), responseBody: Data = Data(),
                 delay: Duration? = nil, priority: Int? = nil, sample: RequestHead) {
        self.method = method
        self.path = path
        self.parameterNames = parameterNames
        self.query = query
        self.headers = headers
        self.requestJSON = requestJSON
        self.requestContains = requestContains
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.delay = delay
        self.priority = priority
        self.sample = sample
    }
}

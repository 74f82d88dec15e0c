import Foundation
import HTTPTypes
import StubdProtocol
import StubdEngine

/// An exchange with every secret replaced (not deleted, so matching still works), reduced to what
/// a stub needs: the request's pattern and conditions, and the answer's status, headers and body.
struct ScrubbedExchange {
    var method: HTTPRequest.Method
    /// `/api/{key}/conditions/q/CA/San_Francisco.json` once `--secret key=…` took the key out.
    var path: String
    /// `"*"` for a secret value: present, any value.
    /// A value of `"*"` means any value, here and in `headers`.
    var query: [QueryItem]
    var headers: HTTPFields
    var requestJSON: JSONValue?
    /// Text the request's body must hold (`body: { contains: … }`): a declared stub's condition
    /// (`stubd import wiremock`); a recording matches bodies as JSON only.
    var requestContains: String? = nil
    var status: HTTPResponse.Status
    var responseHeaders: HTTPFields
    var responseBody: Data
    /// The body's type, without parameters (`application/json`).
    var mediaType: String?
    /// The whole `Content-Type` as the API sent it (`text/plain`, `application/json; charset=utf-8`).
    var contentType: String?
    /// The answer's delay, when the exchange kept one.
    var delay: Duration?
    /// The route's `priority:` (lower wins), when the stub declared one; nil for the default.
    var priority: Int? = nil
    /// A declared stub's scenario step: two routes of one request in two states are two routes, not a sequence.
    var scenario: ScenarioStep? = nil
    /// A declared stub's fault (`response: { fault: … }`); nil for a recording, which saw an answer.
    var fault: Fault? = nil
    /// A declared stub's own name (`DeclaredStub.name`), as the tool wrote it; not part of `key`.
    var declaredName: String? = nil
    /// A WebSocket: `responseBody` is its `.ws` script, written as a `.ws` file or `websocket:`.
    var isWebSocket = false
    /// A GraphQL request: matched by its operation and variables (`graphql:`), not its body.
    var graphQL: RecordedOperation? = nil

    /// Stable across re-recordings of the same request: names its files and route.
    var key: String {
        var text = method.rawValue + " " + path + "\n"
        for q in query.sorted(by: { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }) { text += q.name + "=" + (q.value ?? "") + "&" }
        text += "\n" + headers.map { $0.name.rawName + ":" + $0.value }.sorted().joined(separator: "\n")
        text += "\n" + (requestJSON?.serialized ?? "")
        // Only when set, so a recording's keys (and files named after them) stay as they were.
        if let requestContains { text += "\ncontains:" + requestContains }
        if let graphQL { text += "\ngraphql:" + graphQL.name + " " + graphQL.shape + " " + (graphQL.variables?.serialized ?? "*") }
        if let scenario { text += "\nscenario:" + scenario.name + "|" + (scenario.whenState ?? "") + "|" + (scenario.thenState ?? "") }
        return RecordedNames.hash(text)
    }
}

package import Foundation
package import HTTPTypes
package import StubdEngine

// Not built on RequestHead although the request half looks the same: RequestHead is what matching
// reads (its normalized path computed once, the client's address, the session prefix gone), this is
// what went to the real API and came back, kept for writing files; neither needs the other's fields.
/// One request forwarded to the real API and what it answered, as the recorder receives it.
package struct RecordedExchange: Sendable {
    package var method: HTTPRequest.Method
    /// Decoded, without the query.
    package var path: String
    /// The request's as RequestHead holds them.
    package var query: [QueryItem]
    package var requestHeaders: HTTPFields
    package var requestBody: Data
    package var status: HTTPResponse.Status
    /// As received, hop-by-hop headers included; the recorder keeps only those that matter.
    package var responseHeaders: HTTPFields
    /// Decoded (gzip undone by the client that fetched it).
    package var responseBody: Data
    /// How long the API took to answer, replayed as the route's `delay:` (`stubd import har
    /// --keep-timing`); nil for none. A live recording leaves it out: a replay should be fast.
    package var delay: Duration?
    /// For an event stream, when each piece of the body came from the API: its events are written
    /// with that timing (`: delay` in the `.sse` file). Empty for other answers.
    package var bodyArrivals: [BodyArrival] = []
    /// For a WebSocket the API accepted (`101`): the conversation relayed, written as a `.ws` script
    /// instead of a body.
    package var webSocket: WebSocketTranscript?

    package init(method: HTTPRequest.Method, path: String, query: [QueryItem], requestHeaders: HTTPFields,
                requestBody: Data, status: HTTPResponse.Status, responseHeaders: HTTPFields, responseBody: Data,
                delay: Duration? = nil) {
        self.delay = delay
        self.method = method
        self.path = path
        self.query = query
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
    }

    /// The request as the catalog matches it, to check a written route answers it.
    var requestHead: RequestHead {
        RequestHead(method: method, path: path, query: query, headers: requestHeaders, body: requestBody)
    }
}

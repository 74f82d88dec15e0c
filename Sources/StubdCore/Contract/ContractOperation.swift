package import HTTPTypes
package import StubdEngine

/// One operation of the spec: a method on a path template, what it takes and what it answers.
package struct ContractOperation: Sendable {
    /// Upper-case: `GET`.
    package let method: HTTPRequest.Method
    /// The spec's path template, `/weather/{city}`, as a pattern requests and stub routes are matched with.
    package let path: PathPattern
    package let parameters: [ContractParameter]
    /// Nil when the operation declares no request body.
    package let requestBody: (required: Bool, media: [ContractMedia])?
    package let responses: [ContractResponse]
    /// `security` (the operation's, else the root's): alternatives, any one of which will do, each
    /// the schemes it needs together. Empty when the operation asks for no credential.
    package let security: [[ContractSecurityScheme]]
    /// The operation's place in the spec (`openapi.yaml#/paths/~1weather/get`).
    package let location: String

    /// The members of a Path Item that are operations (`query` is 3.2's).
    package static let methodNames = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    /// `GET /weather/{city}`
    package var signature: String { "\(method) \(path.text)" }

    /// The response key that covers `status`, the most exact one first.
    package func response(for status: HTTPResponse.Status) -> ContractResponse? {
        responses.compactMap { r in r.covers(status.code).map { (r, $0) } }.max { $0.1 < $1.1 }?.0
    }
}

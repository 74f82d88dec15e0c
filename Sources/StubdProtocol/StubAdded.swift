/// `POST /__stubd/stubs` (201): the new runtime stub.
public struct StubAdded: Sendable, Equatable, Codable {
    /// The stub's id in its session: what `DELETE /__stubd/stubs/{id}` takes.
    public let id: String
    /// The stub's signature: `GET /flaky`.
    public let route: String
    /// The session it was added to; `""` for the default one.
    public let session: String
    /// Under `serve --spec` in report mode: how the stub's answers break the spec (each answer it
    /// serves says so too, in `X-Stubd-Contract` and the journal). Absent when they keep to it.
    public let contract: [String]?
    /// The answer as given.
    public init(id: String, route: String, session: String, contract: [String]? = nil) {
        self.id = id; self.route = route; self.session = session; self.contract = contract
    }
}

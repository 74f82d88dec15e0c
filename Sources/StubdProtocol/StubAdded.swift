/// `POST /__stubd/stubs` (201): the new runtime stub.
public struct StubAdded: Sendable, Equatable, Codable {
    /// The stub's id in its session: what `DELETE /__stubd/stubs/{id}` takes.
    public let id: String
    /// The stub's signature: `GET /flaky`.
    public let route: String
    /// The session it was added to; `""` for the default one.
    public let session: String
    /// The answer as given.
    public init(id: String, route: String, session: String) { self.id = id; self.route = route; self.session = session }
}

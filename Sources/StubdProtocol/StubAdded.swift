/// `POST /__stubd/stubs` (201): the new runtime stub.
public struct StubAdded: Sendable, Equatable, Codable {
    public let id: String
    public let route: String
    public let session: String
    public init(id: String, route: String, session: String) { self.id = id; self.route = route; self.session = session }
}

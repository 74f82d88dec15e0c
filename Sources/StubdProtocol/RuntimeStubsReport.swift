/// `GET /__stubd/stubs`: the session's runtime stubs.
public struct RuntimeStubsReport: Sendable, Equatable, Codable {
    /// The session's runtime stubs, each with the `id` that `DELETE /__stubd/stubs/{id}` takes.
    public let stubs: [RouteDescription]
    /// A report as given.
    public init(stubs: [RouteDescription]) { self.stubs = stubs }
}

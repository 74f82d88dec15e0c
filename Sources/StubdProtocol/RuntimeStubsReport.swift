/// `GET /__stubd/stubs`: the session's runtime stubs.
public struct RuntimeStubsReport: Sendable, Equatable, Codable {
    public let stubs: [RouteDescription]
    public init(stubs: [RouteDescription]) { self.stubs = stubs }
}

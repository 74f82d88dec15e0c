/// `PUT /__stubd/scenarios/{name}`: the state a test puts the session's scenario in, as if the
/// requests that lead there had been made (`{"state": "paid"}`).
public struct ScenarioSet: Sendable, Equatable, Codable {
    /// One of the scenario's states (`GET /__stubd/scenarios` lists them).
    public let state: String

    /// A document setting `state`.
    public init(state: String) { self.state = state }
}

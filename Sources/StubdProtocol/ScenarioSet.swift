/// `PUT /__stubd/scenarios/{name}`: the state a test puts the session's scenario in, as if the
/// requests that lead there had been made (`{"state": "paid"}`; `{"state": "paid", "key": "17"}`
/// for one key of a keyed scenario).
public struct ScenarioSet: Sendable, Equatable, Codable {
    /// One of the scenario's states (`GET /__stubd/scenarios` lists them).
    public let state: String
    /// For a keyed scenario (`scenarioKey:`), the key whose state this is; nil for one state per session.
    public let key: String?

    /// A document setting `state` (of `key`, for a keyed scenario).
    public init(state: String, key: String? = nil) {
        self.state = state
        self.key = key
    }
}

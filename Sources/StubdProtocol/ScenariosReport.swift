/// `GET /__stubd/scenarios` and `POST /__stubd/scenarios/reset`: the session's scenarios (routes'
/// `scenario:` in stubd.yml, and its runtime stubs'), each with the state it is in.
public struct ScenariosReport: Sendable, Equatable, Codable {
    /// One scenario: a state machine whose state routes answer in (`whenState:`) and move (`thenState:`).
    public struct Scenario: Sendable, Equatable, Codable {
        /// Its name, as routes give it in `scenario:`.
        public let name: String
        /// The state it is in for this session; `Started` until a request or an admin call moves it.
        /// For a keyed scenario, the state of every key not in `keys`.
        public let state: String
        /// Every state its routes answer in or move into, `Started` first: what `PUT /__stubd/scenarios/{name}` accepts.
        public let states: [String]
        /// For a keyed scenario (`scenarioKey:`), the request value it keeps a state per: `path id`, `jsonPath $.orderId`.
        public let keyedBy: String?
        /// For a keyed scenario, each key out of `Started` with its state.
        public let keys: [String: String]?

        /// A scenario's entry as given.
        public init(name: String, state: String, states: [String], keyedBy: String? = nil, keys: [String: String]? = nil) {
            self.name = name; self.state = state; self.states = states; self.keyedBy = keyedBy; self.keys = keys
        }
    }

    /// The session the states are of (`""` for the default one).
    public let session: String
    /// Every scenario, by name.
    public let scenarios: [Scenario]

    /// A report as given.
    public init(session: String, scenarios: [Scenario]) {
        self.session = session
        self.scenarios = scenarios
    }
}

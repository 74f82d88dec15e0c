/// What a route says of a scenario (`scenario:`, `whenState:`, `thenState:` in stubd.yml): the
/// state machine it belongs to, the state it answers in (nil: every state) and the state it moves
/// the machine to once it has answered (nil: it stays).
package struct ScenarioStep: Sendable, Equatable {
    /// Every scenario starts here, and a reset brings it back here: WireMock's name, so a mapping
    /// carried over reads the same.
    package static let started = "Started"
    /// How many keys of one keyed scenario a session holds out of `Started` unless `scenarios:` says.
    package static let defaultMaxKeys = 10_000
    /// The longest key a keyed scenario keeps a state for: ids are short, and a session holds up to
    /// `maxKeys` of them (a 900 kB key was kept whole, 138 MiB in one session).
    package static let maxKeyBytes = 256

    package let name: String
    package let whenState: String?
    package let thenState: String?
    /// `scenarioKey:`: the request value whose own state the route reads and moves; nil for a
    /// scenario with one state per session.
    package let key: ScenarioKey?
    /// Keys one session may hold out of `Started` (`scenarios: { order: { maxKeys: N } }`), and where that was said.
    package let maxKeys: Int
    package let maxKeysSource: String?
    /// The scenario's timed moves (`scenarios: { order: { moves: […] } }`), taken when its state is read.
    package let moves: [ScenarioMove]

    package init(name: String, whenState: String?, thenState: String?, key: ScenarioKey? = nil,
                 maxKeys: Int = ScenarioStep.defaultMaxKeys, maxKeysSource: String? = nil, moves: [ScenarioMove] = []) {
        self.name = name
        self.whenState = whenState
        self.thenState = thenState
        self.key = key
        self.maxKeys = maxKeys
        self.maxKeysSource = maxKeysSource
        self.moves = moves
    }
}

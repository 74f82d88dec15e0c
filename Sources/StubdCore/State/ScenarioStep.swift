/// What a route says of a scenario (`scenario:`, `whenState:`, `thenState:` in stubd.yml): the
/// state machine it belongs to, the state it answers in (nil: every state) and the state it moves
/// the machine to once it has answered (nil: it stays).
package struct ScenarioStep: Sendable, Equatable {
    /// Every scenario starts here, and a reset brings it back here: WireMock's name, so a mapping
    /// carried over reads the same.
    package static let started = "Started"

    package let name: String
    package let whenState: String?
    package let thenState: String?

    package init(name: String, whenState: String?, thenState: String?) {
        self.name = name
        self.whenState = whenState
        self.thenState = thenState
    }
}

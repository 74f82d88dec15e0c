/// A move would give a keyed scenario one more key out of `Started` than a session may hold
/// (`maxKeys`): the request is refused (507) rather than the table growing without bound.
package struct ScenarioKeyCapReached: Error, Sendable, CustomStringConvertible {
    package let scenario: String
    package let key: String
    package let cap: Int
    /// Where `maxKeys` was given (`stubd.yml:3:15`); nil for the default.
    package let source: String?

    package var description: String {
        "scenario '\(scenario)' already holds \(cap) keys out of Started in this session, its cap ("
            + (source.map { "maxKeys at \($0)" } ?? "the default maxKeys")
            + "), so key '\(key)' cannot move; a reset (POST /__stubd/scenarios/reset) frees them, or raise scenarios: { \(scenario): { maxKeys: N } }"
    }
}

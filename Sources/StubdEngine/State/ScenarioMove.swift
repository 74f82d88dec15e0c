package import Foundation

/// A timed move of a scenario (`scenarios: { order: { moves: [{ from: paid, after: 30s, to: shipped }] } }`):
/// once the scenario (each key of a keyed one) has been in `from` for `after` seconds of the
/// session's clock, it is in `to`. Taken when the state is next read, so a test that advances the
/// virtual clock sees it at once, and nothing runs in the background.
package struct ScenarioMove: Sendable, Equatable {
    package let from: String
    /// Seconds, more than 0.
    package let after: TimeInterval
    package let to: String

    package init(from: String, after: TimeInterval, to: String) {
        self.from = from
        self.after = after
        self.to = to
    }
}

package import Foundation

/// What one session's scenarios did, for coverage: how many times each state was entered, each
/// move taken, and how many keys of a keyed scenario left `Started`. Counted only when a state
/// moves (already under the scenario lock), so a route that answers without moving adds nothing.
package struct ScenarioCounts: Sendable, Equatable {
    /// A move as the catalog declares it: out of `from` (nil: a route with no `whenState:`, which
    /// moves out of any state), into `to`, by a route's `thenState:` or, with `after`, a timed move.
    package struct Move: Sendable, Hashable {
        package let from: String?
        package let to: String
        /// Seconds, for a timed move; nil for a route's move.
        package let after: TimeInterval?

        package init(from: String?, to: String, after: TimeInterval? = nil) {
            self.from = from
            self.to = to
            self.after = after
        }
    }

    /// Scenario → state → times it was entered (by a route, a timed move or the admin API).
    private(set) var entered: [String: [String: Int]] = [:]
    /// Scenario → move → times taken (a route's `thenState:` or a timed move; an admin `PUT` is no move).
    private(set) var taken: [String: [Move: Int]] = [:]
    /// Scenario → times a key left `Started` (a key that comes back and leaves again counts again).
    private(set) var keys: [String: Int] = [:]

    package init() {}

    /// `times`: a cycle of timed moves over a long jump of the clock is taken many times at once,
    /// counted by adding, never listed; a count stops at `Int.max` rather than trap.
    mutating func moved(_ scenario: String, _ move: Move, keyLeftStarted: Bool, times: Int = 1) {
        Self.add(times, to: &taken[scenario, default: [:]][move, default: 0])
        entered(scenario, move.to, keyLeftStarted: keyLeftStarted, times: times)
    }

    mutating func entered(_ scenario: String, _ state: String, keyLeftStarted: Bool, times: Int = 1) {
        Self.add(times, to: &entered[scenario, default: [:]][state, default: 0])
        if keyLeftStarted { keys[scenario, default: 0] += 1 }
    }

    private static func add(_ n: Int, to count: inout Int) {
        let (sum, overflow) = count.addingReportingOverflow(n)
        count = overflow ? Int.max : sum
    }

    func timesEntered(_ scenario: String, _ state: String) -> Int { entered[scenario]?[state] ?? 0 }
    func timesTaken(_ scenario: String, _ move: Move) -> Int { taken[scenario]?[move] ?? 0 }
    func keysMoved(_ scenario: String) -> Int { keys[scenario] ?? 0 }

    /// Adds another session's counts to these.
    mutating func add(_ other: ScenarioCounts) {
        for (name, states) in other.entered { for (state, n) in states { entered[name, default: [:]][state, default: 0] += n } }
        for (name, moves) in other.taken { for (move, n) in moves { taken[name, default: [:]][move, default: 0] += n } }
        for (name, n) in other.keys { keys[name, default: 0] += n }
    }
}

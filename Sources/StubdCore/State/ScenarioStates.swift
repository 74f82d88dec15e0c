package import Foundation
import StubdProtocol

/// One session's scenarios: name → current state, and for a keyed scenario name → key → state,
/// under one lock. A scenario (or key) nobody moved is in `ScenarioStep.started`, so the table holds
/// only moved ones, a move back to `Started` frees its entry and a reset empties it.
///
/// A move is a compare-and-set under the lock: two requests that matched the same transition
/// (both saw `Started`) cannot both take it; the second finds the state moved and is matched again,
/// so the state moves exactly once and each answer was given in the state its route answers in.
package final class ScenarioStates: Sendable {
    /// A state and when (on the session's clock) it was entered, for timed moves out of it.
    struct Entry: Sendable {
        var state: String
        var since: Date
    }
    private struct Table {
        var plain: [String: Entry] = [:]
        var keyed: [String: [String: Entry]] = [:]
        /// What coverage reports; kept by a reset of the states (`POST /__stubd/scenarios/reset`),
        /// emptied with the session's other counts (`resetCounts`).
        var counts = ScenarioCounts()

        func entry(_ name: String, _ key: String?) -> Entry? {
            key.map { keyed[name]?[$0] } ?? plain[name]
        }

        mutating func store(_ name: String, _ key: String?, _ entry: Entry?) {
            let kept = entry?.state == ScenarioStep.started ? nil : entry
            if let key {
                keyed[name, default: [:]][key] = kept
                if keyed[name]?.isEmpty == true { keyed[name] = nil }
            } else {
                plain[name] = kept
            }
        }

        /// The entry with every timed move that has come due by `now` taken, stored back.
        mutating func settled(_ name: String, _ key: String?, _ moves: [ScenarioMove], _ now: () -> Date) -> Entry? {
            guard var entry = entry(name, key) else { return nil }
            guard !moves.isEmpty else { return entry }
            let at = now()
            var moved = false
            // A cycle of timed moves (a → b → a) over a long jump of the clock is walked step by
            // step; bounded, so a year's jump over a one-second cycle costs a bounded time.
            for _ in 0..<10_000 {
                guard let move = moves.first(where: { $0.from == entry.state }) else { break }
                let due = entry.since.addingTimeInterval(move.after)
                guard due <= at else { break }
                entry = Entry(state: move.to, since: due)
                counts.moved(name, ScenarioCounts.Move(from: move.from, to: move.to, after: move.after), keyLeftStarted: false)
                moved = true
            }
            if moved { store(name, key, entry) }
            return entry.state == ScenarioStep.started ? nil : entry
        }

        func heldKeys(_ name: String) -> Int { keyed[name]?.count ?? 0 }
    }

    private let table = Locked<Table>(Table())

    /// The state of `name` (of its `key`, for a keyed scenario), with timed moves due by `now` taken.
    package func state(of name: String, key: String? = nil, moves: [ScenarioMove] = [], now: () -> Date = { Date() }) -> String {
        table.withLock { $0.settled(name, key, moves, now)?.state } ?? ScenarioStep.started
    }

    /// Every key of a keyed scenario out of `Started`, with its state.
    package func keys(of name: String, moves: [ScenarioMove] = [], now: () -> Date = { Date() }) -> [String: String] {
        table.withLock { table in
            var found: [String: String] = [:]
            for key in Array(table.keyed[name]?.keys ?? [:].keys) {
                if let entry = table.settled(name, key, moves, now) { found[key] = entry.state }
            }
            return found
        }
    }

    /// Whether a route with `step` answers in the scenario's state now (a check when matching; the
    /// answer itself is taken by `claim`). `key`: the request's value of `step.key`.
    func allows(_ step: ScenarioStep, key: String?, now: () -> Date) -> Bool {
        guard let when = step.whenState else { return true }
        return state(of: step.name, key: key, moves: step.moves, now: now) == when
    }

    /// `answer()` when the scenario is still in the step's state, then the move to its `thenState`,
    /// both under the lock; nil (nothing moved) when the state changed since matching or `answer`
    /// gave nothing (a route's `times` ran out). Throws, before answering, when the move would take
    /// a keyed scenario past its `maxKeys`.
    func claim<T>(_ step: ScenarioStep, key: String?, now: () -> Date, _ answer: () -> T?) throws(ScenarioKeyCapReached) -> T? {
        try table.withLock { (table: inout Table) throws(ScenarioKeyCapReached) -> T? in
            let current = table.settled(step.name, key, step.moves, now)
            if let when = step.whenState, (current?.state ?? ScenarioStep.started) != when { return nil }
            if let key, let then = step.thenState, then != ScenarioStep.started, current == nil,
               table.heldKeys(step.name) >= step.maxKeys {
                throw ScenarioKeyCapReached(scenario: step.name, key: key, cap: step.maxKeys, source: step.maxKeysSource)
            }
            guard let answered = answer() else { return nil }
            if let then = step.thenState, then != current?.state ?? ScenarioStep.started {
                table.store(step.name, key, Entry(state: then, since: now()))
                table.counts.moved(step.name, ScenarioCounts.Move(from: step.whenState, to: then),
                                   keyLeftStarted: key != nil && current == nil)
            }
            return answered
        }
    }

    /// Puts the scenario (its `key`, for a keyed one) in `state`, as of `now`.
    package func set(_ name: String, key: String? = nil, to state: String, maxKeys: Int = ScenarioStep.defaultMaxKeys,
                     maxKeysSource: String? = nil, now: Date = Date()) throws(ScenarioKeyCapReached) {
        try table.withLock { (table: inout Table) throws(ScenarioKeyCapReached) in
            if let key, state != ScenarioStep.started, table.entry(name, key) == nil, table.heldKeys(name) >= maxKeys {
                throw ScenarioKeyCapReached(scenario: name, key: key, cap: maxKeys, source: maxKeysSource)
            }
            let current = table.entry(name, key)
            // Putting it where it is reaches nothing; a state a test sets is reached (a state only
            // tests set could not be covered otherwise), but it is no move.
            if state != current?.state ?? ScenarioStep.started {
                table.counts.entered(name, state, keyLeftStarted: key != nil && current == nil)
            }
            table.store(name, key, Entry(state: state, since: now))
        }
    }

    /// Every scenario back in `Started`; what coverage counted stays, with the timed moves of
    /// `steps` that came due by `now` and were not yet read taken first (they did happen).
    package func reset(settling steps: [String: ScenarioStep] = [:], now: Date = Date()) {
        table.withLock { table in
            Self.settleAll(&table, steps, now)
            table = Table(counts: table.counts)
        }
    }

    /// Forgets what coverage counted (a reset of the whole session).
    func resetCounts() { table.withLock { $0.counts = ScenarioCounts() } }

    /// What coverage counts, with every timed move of `steps` that came due by `now` taken first:
    /// a test that moved the clock past a move sees it in the report without reading the state.
    func counts(settling steps: [String: ScenarioStep], now: Date) -> ScenarioCounts {
        table.withLock { table in
            Self.settleAll(&table, steps, now)
            return table.counts
        }
    }

    private static func settleAll(_ table: inout Table, _ steps: [String: ScenarioStep], _ now: Date) {
        for (name, step) in steps where !step.moves.isEmpty {
            if step.key == nil {
                _ = table.settled(name, nil, step.moves, { now })
            } else {
                for key in Array(table.keyed[name]?.keys ?? [:].keys) { _ = table.settled(name, key, step.moves, { now }) }
            }
        }
    }
}

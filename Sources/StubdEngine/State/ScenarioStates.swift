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
        /// What the keyed entries cost the session's storage (`ScenarioStates.keyCost`).
        var keyBytes = 0

        func entry(_ name: String, _ key: String?) -> Entry? {
            key.map { keyed[name]?[$0] } ?? plain[name]
        }

        mutating func store(_ name: String, _ key: String?, _ entry: Entry?) {
            let kept = entry?.state == ScenarioStep.started ? nil : entry
            if let key {
                let had = keyed[name]?[key] != nil
                keyed[name, default: [:]][key] = kept
                if keyed[name]?.isEmpty == true { keyed[name] = nil }
                if had != (kept != nil) { keyBytes += (had ? -1 : 1) * ScenarioStates.keyCost(key) }
            } else {
                plain[name] = kept
            }
        }

        /// The entry with every timed move that has come due by `now` taken, stored back. Costs what
        /// is due, not the time passed: a cycle of timed moves (a → b → a) is walked once, then its
        /// whole laps up to `now` are skipped by arithmetic (their moves counted in one addition), and
        /// the rest of a lap walked. Walking a 1-second cycle step by step after a jump of the clock
        /// of 10^11 s took 14 s of CPU on every read, under the lock every request of the session takes.
        mutating func settled(_ name: String, _ key: String?, _ moves: [ScenarioMove], _ now: () -> Date) -> Entry? {
            guard var entry = entry(name, key) else { return nil }
            guard !moves.isEmpty else { return entry }
            let at = now()
            var moved = false
            // State → where the walk entered it (index into `walked`, and when), to find a cycle.
            var seen: [String: (step: Int, since: Date)] = [:]
            var walked: [ScenarioMove] = []
            var lapsSkipped = false
            // A walk reaches a state twice within `moves.count + 1` steps, and after the laps are
            // skipped less than a lap is left: the bound only stops a lap that rounding made last.
            var stepsLeft = 4 * (moves.count + 1)
            while stepsLeft > 0, let move = moves.first(where: { $0.from == entry.state }) {
                stepsLeft -= 1
                let due = entry.since.addingTimeInterval(move.after)
                guard due <= at else { break }
                if !lapsSkipped, let start = seen[entry.state] {
                    // Back in a state the walk passed: `walked[start.step...]` is a lap of `period` seconds.
                    lapsSkipped = true
                    let period = entry.since.timeIntervalSince(start.since)
                    guard period > 0 else { break }
                    // Whole laps: what is left over of the time passed is less than one, so the new
                    // `since` is never past `now`, however large the jump.
                    let elapsed = at.timeIntervalSince(entry.since)
                    let leftOver = elapsed.truncatingRemainder(dividingBy: period)
                    let laps = ((elapsed - leftOver) / period).rounded()
                    if laps >= 1 {
                        let times = laps >= Double(Int.max) ? Int.max : Int(laps)
                        for lapMove in walked[start.step...] {
                            counts.moved(name, ScenarioCounts.Move(from: lapMove.from, to: lapMove.to, after: lapMove.after),
                                         keyLeftStarted: false, times: times)
                        }
                        entry.since = at.addingTimeInterval(-leftOver)
                    }
                    continue
                }
                seen[entry.state] = (walked.count, entry.since)
                walked.append(move)
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
    /// Where keyed entries are charged (`SessionStorage`): up to `maxKeys` keys of 256 bytes a scenario.
    private let storage: SessionStorageAccount

    init(storage: SessionStorageAccount = .unbounded()) { self.storage = storage }

    /// A keyed entry's cost: its key, and the entry and its place in the table.
    static func keyCost(_ key: String) -> Int { key.utf8.count + 96 }

    /// `body` under the lock, with the storage of keys it added or let go charged or released. A body
    /// that may add `key` gets it charged first, outside the lock (a charge may evict other sessions,
    /// which takes their locks); refused, `body` is told why (`room`), to throw only if it adds a key.
    private func withTable<R>(adding key: String? = nil,
                              _ body: (inout Table, _ room: SessionStorageFull?) throws(ScenarioRefusal) -> R) throws(ScenarioRefusal) -> R {
        var charged = 0
        var refused: SessionStorageFull?
        if let key {
            do {
                try storage.charge(Self.keyCost(key))
                charged = Self.keyCost(key)
            } catch {
                refused = error
            }
        }
        var change = 0
        let result = Result { () throws(ScenarioRefusal) -> R in
            try table.withLock { (table: inout Table) throws(ScenarioRefusal) -> R in
                let before = table.keyBytes
                defer { change = table.keyBytes - before }
                return try body(&table, refused)
            }
        }
        storage.release(charged - change)
        return try result.get()
    }

    /// `withTable` for a body that adds no key and throws nothing.
    private func withTable<R>(_ body: (inout Table) -> R) -> R {
        var change = 0
        let result = table.withLock { table in
            let before = table.keyBytes
            defer { change = table.keyBytes - before }
            return body(&table)
        }
        storage.release(-change)
        return result
    }

    /// The state of `name` (of its `key`, for a keyed scenario), with timed moves due by `now` taken.
    package func state(of name: String, key: String? = nil, moves: [ScenarioMove] = [], now: () -> Date = { Date() }) -> String {
        withTable { $0.settled(name, key, moves, now)?.state } ?? ScenarioStep.started
    }

    /// Every key of a keyed scenario out of `Started`, with its state.
    package func keys(of name: String, moves: [ScenarioMove] = [], now: () -> Date = { Date() }) -> [String: String] {
        withTable { table in
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
    func claim<T>(_ step: ScenarioStep, key: String?, now: () -> Date, _ answer: () -> T?) throws(ScenarioRefusal) -> T? {
        let adds = step.thenState.map { $0 != ScenarioStep.started } ?? false
        return try withTable(adding: adds ? key : nil) { (table: inout Table, room: SessionStorageFull?) throws(ScenarioRefusal) -> T? in
            let current = table.settled(step.name, key, step.moves, now)
            if let when = step.whenState, (current?.state ?? ScenarioStep.started) != when { return nil }
            if let key, let then = step.thenState, then != ScenarioStep.started, current == nil {
                if table.heldKeys(step.name) >= step.maxKeys {
                    throw ScenarioRefusal(ScenarioKeyCapReached(scenario: step.name, key: key, cap: step.maxKeys, source: step.maxKeysSource))
                }
                if let room { throw ScenarioRefusal(room) }
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
                     maxKeysSource: String? = nil, now: Date = Date()) throws(ScenarioRefusal) {
        try withTable(adding: state == ScenarioStep.started ? nil : key) { (table: inout Table, room: SessionStorageFull?) throws(ScenarioRefusal) in
            if let key, state != ScenarioStep.started, table.entry(name, key) == nil {
                if table.heldKeys(name) >= maxKeys {
                    throw ScenarioRefusal(ScenarioKeyCapReached(scenario: name, key: key, cap: maxKeys, source: maxKeysSource))
                }
                if let room { throw ScenarioRefusal(room) }
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
        withTable { table in
            Self.settleAll(&table, steps, now)
            table = Table(counts: table.counts, keyBytes: 0)
        }
    }

    /// Forgets what coverage counted (a reset of the whole session).
    func resetCounts() { table.withLock { $0.counts = ScenarioCounts() } }

    /// What coverage counts, with every timed move of `steps` that came due by `now` taken first:
    /// a test that moved the clock past a move sees it in the report without reading the state.
    func counts(settling steps: [String: ScenarioStep], now: Date) -> ScenarioCounts {
        withTable { table in
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

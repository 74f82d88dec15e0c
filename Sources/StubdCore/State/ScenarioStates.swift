import StubdProtocol

/// One session's scenarios: name → current state, under one lock. A scenario nobody moved is in
/// `ScenarioStep.started`, so the table holds only moved ones and a reset empties it.
///
/// A move is a compare-and-set under the lock: two requests that matched the same transition
/// (both saw `Started`) cannot both take it; the second finds the state moved and is matched again,
/// so the state moves exactly once and each answer was given in the state its route answers in.
package final class ScenarioStates: Sendable {
    private let table = Locked<[String: String]>([:])

    package func state(of name: String) -> String {
        table.withLock { $0[name] } ?? ScenarioStep.started
    }

    /// Whether a route with `step` answers in the scenario's state now (a check when matching; the
    /// answer itself is taken by `claim`).
    func allows(_ step: ScenarioStep) -> Bool {
        guard let when = step.whenState else { return true }
        return state(of: step.name) == when
    }

    /// `answer()` when the scenario is still in the step's state, then the move to its `thenState`,
    /// both under the lock; nil (nothing moved) when the state changed since matching or `answer`
    /// gave nothing (a route's `times` ran out).
    func claim<T>(_ step: ScenarioStep, _ answer: () -> T?) -> T? {
        table.withLock { table in
            if let when = step.whenState, (table[step.name] ?? ScenarioStep.started) != when { return nil }
            guard let answered = answer() else { return nil }
            if let then = step.thenState { table[step.name] = then }
            return answered
        }
    }

    package func set(_ name: String, to state: String) {
        table.withLock { $0[name] = state == ScenarioStep.started ? nil : state }
    }

    /// Every scenario back in `Started`.
    package func reset() { table.withLock { $0 = [:] } }
}

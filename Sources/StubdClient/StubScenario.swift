import Foundation
import StubdProtocol

/// One scenario of the server (routes' `scenario:` in stubd.yml) as a session holds it: read its
/// state, or put it in one, so a test starts a flow halfway (already paid) without the requests
/// that lead there. `server.scenario("checkout")`. A keyed scenario (`scenarioKey:`) holds a state
/// per key: `server.scenario("order").state(forKey: "17")`.
public struct StubScenario: Sendable {
    /// The scenario's name, as routes give it in `scenario:`.
    public let name: String
    let client: StubdClient

    /// The state the session's scenario is in (`Started` until something moves it).
    public func state() async throws -> String { try await report().state }

    /// The state of one key of a keyed scenario (`Started` for a key nothing moved).
    public func state(forKey key: String) async throws -> String { try await report().keys?[key] ?? "Started" }

    /// Every key of a keyed scenario that is out of `Started`, with its state.
    public func keys() async throws -> [String: String] { try await report().keys ?? [:] }

    /// Every state the scenario's routes answer in or move into, `Started` first.
    public func states() async throws -> [String] { try await report().states }

    /// Puts the session's scenario in `state` (`PUT /__stubd/scenarios/{name}`); a state none of its
    /// routes names throws ``StubdError/rejected(call:status:detail:)`` listing those there are.
    public func set(_ state: String) async throws {
        _ = try await client.setScenario(name, to: state)
    }

    /// Puts one key of a keyed scenario in `state`.
    public func set(_ state: String, forKey key: String) async throws {
        _ = try await client.setScenario(name, to: state, key: key)
    }

    /// Back to `Started` (`PUT /__stubd/scenarios/{name}` with `Started`).
    public func reset() async throws { try await set("Started") }

    /// Nil when the session's scenario (its `key`, for a keyed one) is in `expected`; otherwise the
    /// failure text an assertion records: `Expected scenario cart in state 'paid', but it is in
    /// 'has-item' (its states: Started, has-item, paid)`.
    public func stateMismatch(expected: String, key: String? = nil) async throws -> String? {
        let all = try await client.scenarios().scenarios
        let what = "scenario \(name)" + (key.map { " key '\($0)'" } ?? "")
        guard let found = all.first(where: { $0.name == name }) else {
            return "Expected \(what) in state '\(expected)', but no route names a scenario '\(name)' ("
                + (all.isEmpty ? "no route names any" : "scenarios: " + all.map(\.name).joined(separator: ", ")) + ")"
        }
        let actual = key.map { found.keys?[$0] ?? "Started" } ?? found.state
        guard actual != expected else { return nil }
        let unknown = found.states.contains(expected) ? "" : "; no route names a state '\(expected)'"
        var keyNote = ""
        if let keyedBy = found.keyedBy, key == nil { keyNote = "; it keeps a state per \(keyedBy): give the key" }
        if key != nil, found.keyedBy == nil { keyNote = "; it is not keyed: one state per session" }
        return "Expected \(what) in state '\(expected)', but it is in '\(actual)' (its states: \(found.states.joined(separator: ", "))\(unknown)\(keyNote))"
    }

    private func report() async throws -> ScenariosReport.Scenario {
        try await client.scenario(named: name)
    }
}

extension StubControl {
    /// The scenario `name` in this session: `try await server.scenario("checkout").set("paid")`.
    public func scenario(_ name: String) -> StubScenario {
        StubScenario(name: name, client: adminClient)
    }
}

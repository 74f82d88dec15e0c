import Foundation
import StubdProtocol

/// One scenario of the server (routes' `scenario:` in stubd.yml) as a session holds it: read its
/// state, or put it in one, so a test starts a flow halfway (already paid) without the requests
/// that lead there. `server.scenario("checkout")`.
public struct StubScenario: Sendable {
    /// The scenario's name, as routes give it in `scenario:`.
    public let name: String
    let client: StubdClient

    /// The state the session's scenario is in (`Started` until something moves it).
    public func state() async throws -> String { try await report().state }

    /// Every state the scenario's routes answer in or move into, `Started` first.
    public func states() async throws -> [String] { try await report().states }

    /// Puts the session's scenario in `state` (`PUT /__stubd/scenarios/{name}`); a state none of its
    /// routes names throws ``StubdError/rejected(call:status:detail:)`` listing those there are.
    public func set(_ state: String) async throws {
        _ = try await client.setScenario(name, to: state)
    }

    /// Back to `Started` (`PUT /__stubd/scenarios/{name}` with `Started`).
    public func reset() async throws { try await set("Started") }

    /// Nil when the session's scenario is in `expected`; otherwise the failure text an assertion
    /// records: `Expected scenario cart in state 'paid', but it is in 'has-item' (its states: Started, has-item, paid)`.
    public func stateMismatch(expected: String) async throws -> String? {
        let all = try await client.scenarios().scenarios
        guard let found = all.first(where: { $0.name == name }) else {
            return "Expected scenario \(name) in state '\(expected)', but no route names a scenario '\(name)' ("
                + (all.isEmpty ? "no route names any" : "scenarios: " + all.map(\.name).joined(separator: ", ")) + ")"
        }
        guard found.state != expected else { return nil }
        let unknown = found.states.contains(expected) ? "" : "; no route names a state '\(expected)'"
        return "Expected scenario \(name) in state '\(expected)', but it is in '\(found.state)' (its states: \(found.states.joined(separator: ", "))\(unknown))"
    }

    private func report() async throws -> ScenariosReport.Scenario {
        guard let found = try await client.scenarios().scenarios.first(where: { $0.name == name }) else {
            throw StubdError.rejected(call: AdminEndpoint.scenarios.description, status: 404, detail: "no scenario '\(name)' in this session")
        }
        return found
    }
}

extension StubControl {
    /// The scenario `name` in this session: `try await server.scenario("checkout").set("paid")`.
    public func scenario(_ name: String) -> StubScenario {
        StubScenario(name: name, client: (self as? StubdClient) ?? StubdClient(baseURL: baseURL))
    }
}

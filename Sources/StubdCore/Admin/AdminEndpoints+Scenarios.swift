import Foundation
import HTTPTypes
import StubdProtocol
import StubdEngine

extension AdminEndpoints {
    /// `GET /__stubd/scenarios`: every scenario the session's requests can move (the catalog's and
    /// its runtime stubs'), each with its state in the session and the states it has; a keyed one
    /// with each key out of `Started`.
    func scenariosReport(_ session: SessionState) -> ScenariosReport {
        let steps = scenarioSteps(session)
        return ScenariosReport(session: session.id, scenarios: scenarioStates(session).sorted { $0.key < $1.key }.map { name, states in
            scenarioEntry(name, states, steps[name], session)
        })
    }

    /// `GET /__stubd/scenarios/{name}`: one scenario's entry, with its keys when it is keyed.
    func scenarioReport(_ name: String, _ session: SessionState) -> GeneratedResponse {
        let all = scenarioStates(session)
        guard let states = all[name] else { return noSuchScenario(name, all) }
        return .document(200, scenarioEntry(name, states, scenarioSteps(session)[name], session))
    }

    /// `PUT /__stubd/scenarios/{name}`: puts the session's scenario (or one key of a keyed one) in
    /// `state`, one of the states its routes name (a state none names would answer nothing: refused,
    /// with the ones there are).
    func setScenario(_ name: String, to state: String, key: String?, in session: SessionState) -> GeneratedResponse {
        let all = scenarioStates(session)
        guard let states = all[name] else { return noSuchScenario(name, all) }
        guard states.contains(state) else {
            return .problem(400, title: "No such state",
                            detail: "scenario '\(name)' has no state '\(state)'; its routes name: " + states.joined(separator: ", "))
        }
        let step = scenarioSteps(session)[name]
        switch (step?.key, key) {
        case (let source?, nil):
            return .problem(400, title: "Scenario key needed",
                            detail: "scenario '\(name)' keeps a state per \(source): send {\"state\": \"\(state)\", \"key\": \"17\"}")
        case (nil, let key?):
            return .problem(400, title: "Scenario not keyed",
                            detail: "scenario '\(name)' has one state per session, not one per key; send {\"state\": \"\(state)\"} without '\(key)'")
        default: break
        }
        if let key, let refusal = ScenarioRefusal.badKey(key, scenario: name, from: #"the PUT's "key""#) {
            return .problem(refusal.status, title: refusal.title, detail: refusal.detail)
        }
        do {
            try session.scenarios.set(name, key: key, to: state, maxKeys: step?.maxKeys ?? ScenarioStep.defaultMaxKeys,
                                      maxKeysSource: step?.maxKeysSource, now: session.clock.now())
        } catch {
            return .problem(error.status, title: error.title, detail: error.detail)
        }
        return .document(200, scenarioEntry(name, states, step, session))
    }

    private func scenarioEntry(_ name: String, _ states: [String], _ step: ScenarioStep?, _ session: SessionState) -> ScenariosReport.Scenario {
        let moves = step?.moves ?? []
        let now = { session.clock.now() }
        guard let source = step?.key else {
            return ScenariosReport.Scenario(name: name, state: session.scenarios.state(of: name, moves: moves, now: now), states: states)
        }
        return ScenariosReport.Scenario(name: name, state: ScenarioStep.started, states: states, keyedBy: source.description,
                                        keys: session.scenarios.keys(of: name, moves: moves, now: now))
    }

    private func noSuchScenario(_ name: String, _ all: [String: [String]]) -> GeneratedResponse {
        .problem(404, title: "No such scenario",
                 detail: "no scenario '\(name)' in this session; " + (all.isEmpty
                     ? "no route names one (scenario: in stubd.yml)" : "scenarios: " + all.keys.sorted().joined(separator: ", ")))
    }

    /// Each scenario's step with its key, cap and timed moves: the catalog's, with the runtime stubs' added.
    func scenarioSteps(_ session: SessionState) -> [String: ScenarioStep] {
        guard session.hasRuntimeStubs else { return catalog.scenarioSteps }
        return StubCatalog.scenarioSteps(of: catalog.routes + session.runtimeStubs().map(\.route))
    }

    /// The catalog's scenarios with the session's runtime stubs' added.
    private func scenarioStates(_ session: SessionState) -> [String: [String]] {
        guard session.hasRuntimeStubs else { return catalog.scenarios }
        let runtime = session.runtimeStubs().map(\.route)
        guard runtime.contains(where: { $0.scenario != nil }) else { return catalog.scenarios }
        return StubCatalog.scenarioStates(of: catalog.routes + runtime)
    }
}

import StubdProtocol

extension StubEngine {
    /// `GET /__stubd/scenarios`: every scenario the session's requests can move (the catalog's and
    /// its runtime stubs'), each with its state in the session and the states it has.
    func scenariosReport(_ session: SessionState) -> ScenariosReport {
        ScenariosReport(session: session.id, scenarios: scenarioStates(session).sorted { $0.key < $1.key }.map { name, states in
            ScenariosReport.Scenario(name: name, state: session.scenarios.state(of: name), states: states)
        })
    }

    /// `PUT /__stubd/scenarios/{name}`: puts the session's scenario in `state`, one of the states its
    /// routes name (a state none names would answer nothing: refused, with the ones there are).
    func setScenario(_ name: String, to state: String, in session: SessionState) -> GeneratedResponse {
        let all = scenarioStates(session)
        guard let states = all[name] else {
            return .problem(404, title: "No such scenario",
                            detail: "no scenario '\(name)' in this session; " + (all.isEmpty
                                ? "no route names one (scenario: in stubd.yml)" : "scenarios: " + all.keys.sorted().joined(separator: ", ")))
        }
        guard states.contains(state) else {
            return .problem(400, title: "No such state",
                            detail: "scenario '\(name)' has no state '\(state)'; its routes name: " + states.joined(separator: ", "))
        }
        session.scenarios.set(name, to: state)
        return .document(200, ScenariosReport.Scenario(name: name, state: state, states: states))
    }

    /// The catalog's scenarios with the session's runtime stubs' added.
    private func scenarioStates(_ session: SessionState) -> [String: [String]] {
        guard session.hasRuntimeStubs else { return catalog.scenarios }
        let runtime = session.runtimeStubs().map(\.route)
        guard runtime.contains(where: { $0.scenario != nil }) else { return catalog.scenarios }
        return StubCatalog.scenarioStates(of: catalog.routes + runtime)
    }
}

/// What a template may read of what the session remembers (`{{scenario 'cart'}}`,
/// `{{resourceCount 'todos'}}`, `{{resourceItems 'todos'}}`), so one route's answer can tell of
/// another's state. Read when the answer is rendered, through the session's own locks.
package struct TemplateStateView: Sendable {
    let session: SessionState
    let catalog: StubCatalog

    /// The scenario's state in the session (of `key`, for a keyed scenario); nil for a name no route gives.
    func scenarioState(_ name: String, key: String? = nil) -> String? {
        guard catalog.scenarios[name] != nil || session.hasRuntimeStubs else { return nil }
        let step = catalog.scenarioSteps[name]
        return session.scenarios.state(of: name, key: step?.key == nil ? nil : key, moves: step?.moves ?? [], now: { session.clock.now() })
    }

    /// The session's items of the resource, in the order `GET /__stubd/resources/{name}` gives them.
    func resourceItems(_ name: String) -> [JSONValue]? {
        catalog.resources[name].map { session.resourceStore(for: $0).allItems() }
    }

    func resourceCount(_ name: String) -> Int? {
        catalog.resources[name].map { session.resourceStore(for: $0).count }
    }
}

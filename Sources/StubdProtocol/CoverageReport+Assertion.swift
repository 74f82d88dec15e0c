extension CoverageReport {
    /// The failure text of `XCTAssertStubsCovered` and `expectStubsCovered`, nil when everything
    /// not excepted was covered. `except` names a whole route (its name or signature) or one item
    /// (`ROUTE: ITEM`, e.g. `flaky: answer 2` or `limited: quota tight reset-by-clock`), a scenario
    /// (`scenario cart`) or one of its states or transitions (`scenario cart: state paid`,
    /// `scenario cart: transition has-item -> paid`), or, with a spec,
    /// an operation (`GET /users/{id}`) or one of its statuses (`GET /users/{id}: 404`); a name that
    /// matches nothing is itself a failure, so a renamed route cannot pass silently.
    public func uncoveredMessage(except: [String] = []) -> String? {
        var unused = Set(except)
        var lines: [String] = []
        for route in routes {
            let routeExcepted = [route.route, route.signature].filter(unused.contains)
            unused.subtract(routeExcepted)
            for item in route.items {
                let names = ["\(route.route): \(item.id)", "\(route.signature): \(item.id)"]
                let itemExcepted = names.filter(unused.contains)
                unused.subtract(itemExcepted)
                if item.isCovered || !routeExcepted.isEmpty || !itemExcepted.isEmpty { continue }
                lines.append(CoverageReport.explain(item, on: route))
            }
        }
        for scenario in scenarios ?? [] {
            let scenarioExcepted = unused.remove(scenario.label) != nil
            for item in scenario.items {
                let itemExcepted = unused.remove("\(scenario.label): \(item.id)") != nil
                if item.isCovered || scenarioExcepted || itemExcepted { continue }
                lines.append(CoverageReport.explain(item, of: scenario))
            }
        }
        for operation in operations ?? [] {
            let operationExcepted = unused.contains(operation.operation)
            unused.remove(operation.operation)
            for status in operation.unanswered {
                let name = "\(operation.operation): \(status)"
                let statusExcepted = unused.remove(name) != nil
                if operationExcepted || statusExcepted { continue }
                lines.append(CoverageReport.explain(status, of: operation))
            }
        }
        var parts: [String] = []
        if !lines.isEmpty {
            let total = routes.reduce(0) { $0 + $1.items.count } + (operations ?? []).reduce(0) { $0 + $1.documented.count }
                + (scenarios ?? []).reduce(0) { $0 + $1.items.count }
            parts.append("\(lines.count) of \(total) stub items never reached\(session.map { " in session \($0)" } ?? ""):\n"
                         + lines.map { "- " + $0 }.joined(separator: "\n"))
        }
        if !unused.isEmpty {
            parts.append("except: names no route or item: " + unused.sorted().map { "'\($0)'" }.joined(separator: ", ")
                         + " (give a route's name or signature, or ROUTE: ITEM such as '"
                         + (routes.first.map { "\($0.route): \($0.items.first?.id ?? "answer 1")" } ?? "route: answer 1") + "')")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }
}

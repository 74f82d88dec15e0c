import StubdProtocol

/// `stubd coverage`'s table: uncovered items first (with how to reach each), then the covered, as
/// `stubd hits` lists routes, scenarios' states and transitions among them (as `scenario NAME`);
/// a summary line, the scenarios' tally and the network behaviours below.
enum CoverageTable {
    static func render(_ report: CoverageReport) -> String {
        var rows = [["", "ROUTE", "ITEM", "HITS", "HOW TO REACH"]]
        let entries = report.routes.flatMap { route in route.items.map { (route.route, $0) } }
            + (report.scenarios ?? []).flatMap { scenario in scenario.items.map { (scenario.label, $0) } }
        for (owner, item) in entries.filter({ !$0.1.isCovered }) {
            rows.append(["-", owner, item.title, "0", item.hint])
        }
        for (owner, item) in entries.filter({ $0.1.isCovered }) {
            rows.append(["+", owner, item.title, String(item.hits), ""])
        }
        if let operations = report.operations {
            // Operations after routes: what the spec documents and no answer had, then what was answered.
            rows.append(["", "", "", "", ""])
            rows.append(["", "OPERATION (spec)", "STATUS", "STATE", "HOW TO REACH"])
            for operation in operations {
                for status in operation.unanswered {
                    rows.append(["-", operation.operation, "\(status) (documented)", operation.state.rawValue, operation.hint(for: status)])
                }
            }
            for operation in operations {
                for status in operation.documented where operation.answered.contains(status) {
                    rows.append(["+", operation.operation, String(status), operation.state.rawValue, ""])
                }
            }
        }
        let s = report.summary
        // A covered row's empty last column would leave the padding of the one before it.
        var text = RouteTable.table(rows).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.dropLast(line.reversed().prefix { $0 == " " }.count)) }.joined(separator: "\n")
        text += "\n\n\(s.covered) of \(s.items) items covered (\(s.percent)%), \(s.routesHit) of \(s.routes) routes hit"
            + (report.session.map { " in session \($0)" } ?? "")
        if let operations = report.operations {
            let full = operations.filter { $0.state == .full }.count, partial = operations.filter { $0.state == .partial }.count
            text += "\nspec operations: \(full) full, \(partial) partial, \(operations.count - full - partial) empty of \(operations.count)"
        }
        if let scenarios = report.scenarios, !scenarios.isEmpty {
            let items = scenarios.flatMap(\.items)
            let states = items.filter { $0.kind == .state }, moves = items.filter { $0.kind == .transition }
            let keys = scenarios.compactMap(\.keys).reduce(0, +)
            text += "\nscenarios: \(states.filter(\.isCovered).count) of \(states.count) states reached, "
                + "\(moves.filter(\.isCovered).count) of \(moves.count) transitions taken"
                + (scenarios.contains { $0.keys != nil } ? ", \(keys) key\(keys == 1 ? "" : "s") moved out of Started" : "")
        }
        if !report.behaviours.isEmpty {
            text += "\nnetwork behaviours: " + report.behaviours.map { "\($0.behaviour) \($0.covered)/\($0.answers)" }.joined(separator: ", ")
        }
        return text
    }
}

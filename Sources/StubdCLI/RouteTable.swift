import Foundation
import Stubd
import StubdCore
import StubdEngine

enum RouteTable {
    static func render(_ catalog: StubCatalog) -> String {
        // The SCENARIO column only when a route has one: a folder without scenarios reads as before.
        let scenarios = catalog.routes.contains { $0.scenario != nil }
        var rows = [["ROUTE", "NAME", "PRIORITY", "QUOTAS"] + (scenarios ? ["SCENARIO"] : []) + ["SOURCE"]]
        for r in catalog.routes {
            rows.append([r.signature, r.name ?? "-", String(r.priority),
                         r.quotas.map(\.name).joined(separator: ",").ifEmpty("-")]
                        + (scenarios ? [r.scenario.map(scenarioCell) ?? "-"] : [])
                        + [r.source.description])
        }
        return table(rows)
    }

    /// `cart: has-item -> paid`; `*` for a route that answers in every state; `order[path id]: …`
    /// for a keyed scenario; a state it stays in alone (`cart: has-item`).
    static func scenarioCell(_ step: ScenarioStep) -> String {
        let name = step.name + (step.key.map { "[\($0)]" } ?? "")
        guard let then = step.thenState else { return "\(name): \(step.whenState ?? "*")" }
        return "\(name): \(step.whenState ?? "*") -> \(then)"
    }

    static func table(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { i in rows.map { $0[i].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}

import Stubd
import StubdCore

enum RouteTable {
    static func render(_ catalog: StubCatalog) -> String {
        var rows = [["ROUTE", "NAME", "PRIORITY", "QUOTAS", "SOURCE"]]
        for r in catalog.routes {
            rows.append([r.signature, r.name ?? "-", String(r.priority),
                         r.quotas.map(\.name).joined(separator: ",").ifEmpty("-"),
                         r.source.description])
        }
        return table(rows)
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

import StubdProtocol

/// `stubd coverage`'s table: uncovered items first (with how to reach each), then the covered, as
/// `stubd hits` lists routes; a summary line and the network behaviours below.
enum CoverageTable {
    static func render(_ report: CoverageReport) -> String {
        var rows = [["", "ROUTE", "ITEM", "HITS", "HOW TO REACH"]]
        let entries = report.routes.flatMap { route in route.items.map { (route, $0) } }
        for (route, item) in entries.filter({ !$0.1.isCovered }) {
            rows.append(["-", route.route, item.title, "0", item.hint])
        }
        for (route, item) in entries.filter({ $0.1.isCovered }) {
            rows.append(["+", route.route, item.title, String(item.hits), ""])
        }
        let s = report.summary
        // A covered row's empty last column would leave the padding of the one before it.
        var text = RouteTable.table(rows).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.dropLast(line.reversed().prefix { $0 == " " }.count)) }.joined(separator: "\n")
        text += "\n\n\(s.covered) of \(s.items) items covered (\(s.percent)%), \(s.routesHit) of \(s.routes) routes hit"
            + (report.session.map { " in session \($0)" } ?? "")
        if !report.behaviours.isEmpty {
            text += "\nnetwork behaviours: " + report.behaviours.map { "\($0.behaviour) \($0.covered)/\($0.answers)" }.joined(separator: ", ")
        }
        return text
    }
}

/// What `stubd import har` did: a row per request, and the counts the summary line gives.
package struct HARImportReport: Sendable {
    package var rows: [HARImportRow] = []
    /// Requests to hosts not imported (`--host`), by host: counted, not listed one by one.
    package var otherHosts: [(host: String, count: Int)] = []
    /// Routes and files written.
    package var routes: Set<String> = []
    package var files: Set<String> = []

    package func count(_ kind: HARImportRow.Kind) -> Int { rows.filter { $0.kind == kind }.count }

    /// The table, one request a line, columns aligned.
    package var table: String {
        var lines = [["#", "METHOD", "PATH", "STATUS", "RESULT"]]
        for row in rows {
            let result = switch row.kind {
            case .imported: row.result
            case .alreadyThere: "unchanged: " + row.result
            case .leftOut: "NOT IMPORTED: " + row.result
            }
            lines.append(["\(row.number)", row.method, row.target, "\(row.status)", result])
        }
        var widths = [Int](repeating: 0, count: 4)
        for line in lines { for i in 0..<4 { widths[i] = max(widths[i], line[i].count) } }
        return lines.map { line in
            (0..<4).map { line[$0] + String(repeating: " ", count: widths[$0] - line[$0].count) }.joined(separator: "  ") + "  " + line[4]
        }.joined(separator: "\n")
    }
}

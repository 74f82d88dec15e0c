import StubdEngine

/// What `stubd import` did: a row per request, and the counts the summary line gives.
package struct ImportReport: Sendable {
    /// The first column's title: `#` for a HAR's entries, `MAPPING` for WireMock, `EXAMPLE` for Postman.
    package var sourceTitle = "#"
    package var rows: [ImportRow] = []
    /// Requests to hosts not imported (`--host`), by host: counted, not listed one by one.
    package var otherHosts: [(host: String, count: Int)] = []
    /// Routes and files written.
    package var routes: Set<String> = []
    package var files: Set<String> = []

    package init(sourceTitle: String = "#") { self.sourceTitle = sourceTitle }

    package func count(_ kind: ImportRow.Kind) -> Int { rows.filter { $0.kind == kind }.count }
    /// Imported with something left out (see `ImportRow.partial`).
    package var partialCount: Int { rows.filter { $0.kind == .imported && !$0.partial.isEmpty }.count }

    /// The table, one request a line, columns aligned; what came over only in part on the lines below its row.
    package var table: String {
        var lines = [[sourceTitle, "METHOD", "PATH", "STATUS", "RESULT"]]
        var notes: [Int: [String]] = [:]
        for row in rows {
            let result = switch row.kind {
            case .imported: row.partial.isEmpty ? row.result : row.result + " (in part)"
            case .alreadyThere: "unchanged: " + row.result
            case .leftOut: "NOT IMPORTED: " + row.result
            }
            lines.append([row.source, row.method, row.target, row.status == 0 ? "-" : "\(row.status)", result])
            if row.kind == .imported, !row.partial.isEmpty { notes[lines.count - 1] = row.partial }
        }
        var widths = [Int](repeating: 0, count: 4)
        for line in lines { for i in 0..<4 { widths[i] = max(widths[i], line[i].count) } }
        var out: [String] = []
        for (n, line) in lines.enumerated() {
            out.append((0..<4).map { line[$0] + String(repeating: " ", count: widths[$0] - line[$0].count) }.joined(separator: "  ") + "  " + line[4])
            for note in notes[n] ?? [] { out.append("    in part: " + note) }
        }
        return out.joined(separator: "\n")
    }
}

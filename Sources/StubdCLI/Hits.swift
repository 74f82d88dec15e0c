import ArgumentParser

struct Hits: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show hits and quota state of a running stubd.")
    @OptionGroup var server: ServerOption

    func run() async throws {
        try await server.call("hits") { client in
            let hits = try await client.allHits()
            var rows = [["ROUTE", "HITS"]]
            for (route, count) in hits.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) { rows.append([route, String(count)]) }
            print(RouteTable.table(rows))
            let forwarded = try await client.forwardedHits()
            if !forwarded.isEmpty {
                var proxied = [["PROXIED TO THE REAL API", "HITS"]]
                for (path, count) in forwarded.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) { proxied.append([path, String(count)]) }
                print(""); print(RouteTable.table(proxied))
            }
            let quotas = try await client.quotaTable()
            if quotas.count > 1 { print(""); print(RouteTable.table(quotas)) }
            let unmatched = try await client.unmatchedReport()
            if unmatched.count > 0 {
                print("\n\(unmatched.count) unmatched request(s)" + (unmatched.nearest.isEmpty ? "" : "; latest: " + unmatched.nearest.prefix(3).joined(separator: "; ")))
            }
        }
    }
}

import ArgumentParser
import StubdClient
import StubdProtocol

struct Hits: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show hits and quota state of a running stubd.")
    @OptionGroup var server: ServerOption

    func run() async throws {
        try await server.call("hits") { client in
            let hits = try await client.allHits()
            var rows = [["ROUTE", "HITS"]]
            for (route, count) in hits.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) { rows.append([route, String(count)]) }
            print(RouteTable.table(rows))
            if server.session == nil, !hits.isEmpty, hits.values.allSatisfy({ $0 == 0 }) {
                try await explainEndedSessions(client)
            }
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

    /// All zeros here after a test run is the usual surprise: the helpers on `STUBD_URL` take a
    /// session per test and reset it at teardown, and these are the default session's hits. The
    /// whole server's coverage keeps what ended sessions handed over, so say where the hits went.
    private func explainEndedSessions(_ client: StubdClient) async throws {
        let elsewhere = try await client.coverage().routes.reduce(0) { $0 + $1.hits }
        guard elsewhere > 0 else { return }
        print("""

        These are the default session's hits; \(elsewhere) hits went to other sessions. Tests on STUBD_URL
        take a session each, reset at teardown: `stubd coverage` counts every session since start,
        and `stubd hits --session ID` shows a session still open.
        """)
    }
}

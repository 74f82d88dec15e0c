import ArgumentParser
import StubdClient
import StubdProtocol

/// `stubd fleet coverage URL…`: each replica's whole-server report, added up as `coverage merge`
/// adds up CI shards'. Exact for a fleet: the balancer keeps a session on one replica, so no
/// sequence or quota is split between two reports.
struct FleetCoverage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Merge the coverage of every replica into one report (a table unless --format says otherwise).")
    @OptionGroup var replicas: FleetReplicas
    @OptionGroup var output: CoverageOutput

    func run() async throws {
        var reports: [CoverageReport] = []
        var failures: [String] = []
        for (url, result) in await replicas.each({ try await $0.coverage() }) {
            switch result {
            case .success(let report): reports.append(report)
            case .failure(let error): failures.append("\(url): " + FleetReplicas.explain(error))
            }
        }
        // A report without one replica would pass for the fleet's while missing its sessions.
        guard failures.isEmpty else {
            for failure in failures { printError("stubd fleet coverage: " + failure) }
            printError("stubd fleet coverage: no report: \(failures.count) of \(replicas.urls.count) replicas did not answer")
            throw ExitCode(1)
        }
        try output.emit(CoverageReport.merged(reports))
    }
}

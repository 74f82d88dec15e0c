import ArgumentParser
import StubdClient
import StubdProtocol

/// `stubd coverage`: which answers, network behaviours and quota states the requests reached.
struct Coverage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show which answers, network behaviours and quota states of the Stubs folder requests reached.",
        subcommands: [Show.self, Merge.self],
        defaultSubcommand: Show.self)

    /// The report of a running stubd (or a saved one), printed.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the coverage of a running stubd (the whole server, or --session), or of a saved report (--from).")
        @OptionGroup var server: ServerOption
        @Option(name: .long, help: ArgumentHelp("A JSON report saved earlier (--format json, serve --coverage-out) instead of a running stubd.", valueName: "file"))
        var from: String?
        @OptionGroup var output: CoverageOutput

        func validate() throws {
            if from != nil, server.session != nil {
                throw ValidationError("--session reads a running stubd and --from a saved report: give one of them")
            }
        }

        func run() async throws {
            let report: CoverageReport
            if let from {
                report = try CoverageOutput.read(from)
            } else {
                var fetched: CoverageReport?
                try await server.call("coverage") { client in fetched = try await client.coverage() }
                report = fetched!
            }
            try output.emit(report)
        }
    }

    /// CI shards' reports as one.
    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add up saved JSON reports (one per CI shard) into one; prints JSON unless --format says otherwise.")
        @Argument(help: ArgumentHelp("JSON reports (--format json, serve --coverage-out).", valueName: "report.json"))
        var reports: [String]
        @OptionGroup var output: CoverageOutput

        func validate() throws {
            if reports.isEmpty { throw ValidationError("give the reports to merge: stubd coverage merge A.json B.json") }
        }

        func run() async throws {
            let merged = CoverageReport.merged(try reports.map(CoverageOutput.read))
            try output.emit(merged, defaultFormat: .json)
        }
    }
}

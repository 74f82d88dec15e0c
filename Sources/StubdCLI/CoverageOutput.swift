import ArgumentParser
import Foundation
import StubdProtocol

/// How a coverage report is printed, and when it fails the command.
struct CoverageOutput: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json, junit, ctrf }
    enum Uncovered: String, ExpressibleByArgument, CaseIterable { case failure, skipped }

    @Option(name: .long, help: "table | json | junit | ctrf (merge prints json by default, show a table).")
    var format: Format?
    @Option(name: .long, help: ArgumentHelp("Exit 1 when less than this percentage of items was covered.", valueName: "percent"))
    var failUnder: Double?
    @Option(name: .long, help: "How junit and ctrf report an uncovered item: failure (default) | skipped.")
    var uncovered: Uncovered = .failure

    func validate() throws {
        if let failUnder, !(0...100).contains(failUnder) {
            throw ValidationError("--fail-under is a percentage from 0 to 100, got \(failUnder)")
        }
    }

    func emit(_ report: CoverageReport, defaultFormat: Format = .table) throws {
        switch format ?? defaultFormat {
        case .table: print(CoverageTable.render(report))
        case .json: print(CoverageOutput.json(report))
        case .junit: print(JUnitCoverage.render(report, uncoveredAs: uncovered))
        case .ctrf: print(CTRFCoverage.render(report, uncoveredAs: uncovered))
        }
        fflush(nil)
        if let failUnder, report.summary.percent < failUnder {
            printError("stubd coverage: \(report.summary.percent)% of items covered (\(report.summary.covered) of \(report.summary.items)), under --fail-under \(failUnder)")
            throw ExitCode(1)
        }
    }

    /// Sorted keys and indentation: a saved report diffs well and is the same bytes for the same counts.
    static func json(_ report: CoverageReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self)
    }

    static func read(_ path: String) throws -> CoverageReport {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            printError("stubd coverage: cannot read \(path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        switch SavedCoverageReport.decode(data, file: path) {
        case .success(let report): return report
        case .failure(let failure):
            printError("stubd coverage: \(failure) (write a report with `stubd coverage --format json` or `stubd serve --coverage-out`)")
            throw ExitCode(1)
        }
    }
}

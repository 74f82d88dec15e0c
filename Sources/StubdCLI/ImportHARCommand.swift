import ArgumentParser
import Foundation
import StubdCore
import StubdEngine

/// `stubd import har FILE --stubs DIR`: the requests of a HAR file, written as `stubd record` writes (see HARImporter).
struct ImportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Write the requests of a HAR file (browser dev tools, mitmproxy, Proxyman, Charles) into a Stubs folder.",
        discussion: [
            "Written as `stubd record` writes: a convention file where the path alone decides, a route in stubd.recorded.yml where it does not, a request answered differently twice as a sequence, secrets replaced (--secret replaces more). Importing again changes nothing; another HAR into the same folder adds its requests beside.",
            "The folder is loaded as `stubd serve` loads it before the import says it is done; a HAR that does not read (truncated, base64 that is not, a path with '..') writes nothing.",
        ].joined(separator: "\n\n"))

    @Argument(help: "The HAR file (HAR 1.2, JSON).")
    var file: String

    @OptionGroup var stubs: StubsOption

    @Option(name: .long, help: ArgumentHelp("Import the requests to this host only (host or host:port), at the top of the folder; 'all': each host into a folder named after it. Needed when the HAR holds several hosts.", valueName: "name"))
    var host: String?

    @Flag(name: .long, help: "Each answer waits as long as the real one did (the HAR's timings.wait), as a delay on its route.")
    var keepTiming = false

    @Option(name: .long, help: ArgumentHelp("Replace this literal wherever it appears: a path segment becomes {NAME}, elsewhere <NAME> (repeatable), e.g. --secret key=abc123.", valueName: "NAME=VALUE"))
    var secret: [String] = []

    @Option(name: .long, help: ArgumentHelp("A request header imported routes match on (repeatable; none by default).", valueName: "name"))
    var matchHeader: [String] = []

    @Option(name: .long, help: ArgumentHelp("Import only answers with these statuses, classes or codes, e.g. 2xx,3xx. Default: every status.", valueName: "statuses"))
    var only: String?

    @OptionGroup var size: ImportSizeOption

    func validate() throws {
        for item in secret {
            do { _ = try NamedSecret(parsing: item) } catch { throw ValidationError(error.description) }
        }
        if let only {
            do { _ = try RecordedStatuses(parsing: only) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: file)
        var options = HARImporter.Options()
        options.host = host
        options.keepTiming = keepTiming
        options.rules = RecordingRules(secrets: secret.compactMap { try? NamedSecret(parsing: $0) }, matchHeaders: matchHeader,
                                       statuses: only.flatMap { try? RecordedStatuses(parsing: $0) } ?? .all)
        try ImportCommand.run("har") { () throws(ImportError) in
            let document = try HARDocument.load(url, name: file, maxBytes: size.bytes)
            let report = try HARImporter(root: stubs.url, options: options).run(document, name: file)
            print(report.table)
            if !report.otherHosts.isEmpty {
                print("not imported: \(report.otherHosts.map(\.count).reduce(0, +)) requests to other hosts (\(report.otherHosts.map { "\($0.host) \($0.count)" }.joined(separator: ", "))); --host all takes every host")
            }
            let imported = report.count(.imported), unchanged = report.count(.alreadyThere), leftOut = report.count(.leftOut)
            print("imported \(imported) of \(document.count) requests from \(url.lastPathComponent) into \(stubs.stubs): "
                  + "\(report.routes.count) route\(report.routes.count == 1 ? "" : "s") written, \(unchanged) already answered, \(leftOut) not imported"
                  + "; the folder loads as stubd serve loads it")
        }
    }
}

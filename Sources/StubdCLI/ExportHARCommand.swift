import ArgumentParser
import Foundation
import StubdCore

/// `stubd export har`: a folder's routes (a recording, an import) as a HAR file (see HARExporter).
struct ExportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Write a Stubs folder's routes as a HAR file: one entry per answer, for a HAR viewer or another tool.",
        discussion: "Each route's request is the one `stubd drift` would send: a {param} in a path needs --secret NAME=VALUE, a \"*\" query or header value is written as <NAME>. Faults, templates and quota answers are left out and listed.")

    @OptionGroup var stubs: StubsOption

    @Option(name: [.short, .long], help: ArgumentHelp("Write the HAR here instead of standard output.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("The origin the requests go to.", valueName: "url"))
    var baseUrl: String = "http://localhost:8080"

    @Option(name: .long, help: ArgumentHelp("The value a {NAME} path segment or <NAME> stands for (repeatable).", valueName: "NAME=VALUE"))
    var secret: [String] = []

    func validate() throws {
        for item in secret {
            do { _ = try NamedSecret(parsing: item) } catch { throw ValidationError(error.description) }
        }
        guard let url = URL(string: baseUrl), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--base-url '\(baseUrl)' is not a URL like http://localhost:8080")
        }
    }

    func run() throws {
        let catalog: StubCatalog
        do { catalog = try StubCatalog.load(stubs: stubs.url) } catch {
            printError("stubd export har: \(stubs.stubs) does not load:\n\(error)")
            throw ExitCode(1)
        }
        let result = HARExporter(catalog: catalog, secrets: secret.compactMap { try? NamedSecret(parsing: $0) }, baseURL: baseUrl).export()
        if let output {
            do { try result.har.write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
                printError("stubd export har: cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        } else {
            FileHandle.standardOutput.write(result.har)
        }
        for (route, why) in result.leftOut { printError("stubd export har: left out \(route): \(why)") }
        printError("stubd export har: \(result.entries) entries from \(result.routes) routes of \(stubs.stubs)"
                   + (result.leftOut.isEmpty ? "" : "; \(result.leftOut.count) left out (above)") + (output.map { " written to \($0)" } ?? ""))
    }
}

import ArgumentParser
import Foundation
import StubdClient
import StubdCore
import StubdEngine

/// `stubd export har`: a running server's journal (`--url`, `--session`), or a folder's routes (a
/// recording, an import), as a HAR file (see JournalHAR and HARExporter).
struct ExportHARCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Write a session's traffic (from a running stubd) or a Stubs folder's routes as a HAR file, for a HAR viewer or `stubd import har`.",
        discussion: """
            With --url or --session: the journal of a running stubd (a session's, or the default one's), each request with its answer, bodies up to 64 KiB each, secrets scrubbed as `stubd record` scrubs them.
            Otherwise: the routes of --stubs, one entry per answer. Each route's request is the one `stubd drift` would send: a {param} in a path needs --secret NAME=VALUE, a "*" query or header value is written as <NAME>. Faults, templates and quota answers are left out and listed.
            """)

    @OptionGroup var stubs: StubsOption

    @Option(name: .long, help: ArgumentHelp("The running stubd whose journal to export (env STUBD_URL is not read: say which).", valueName: "url"))
    var url: String?

    @Option(name: .long, help: ArgumentHelp("Only this session's journal (with --url, or the server at http://127.0.0.1:8080).", valueName: "id"))
    var session: String?

    @Option(name: [.short, .long], help: ArgumentHelp("Write the HAR here instead of standard output.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("The origin the requests go to.", valueName: "url"))
    var baseUrl: String = "http://localhost:8080"

    @Option(name: .long, help: ArgumentHelp("The value a {NAME} path segment or <NAME> stands for (repeatable).", valueName: "NAME=VALUE"))
    var secret: [String] = []

    func validate() throws {
        if let url {
            guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil else {
                throw ValidationError("--url '\(url)' is not a URL like http://127.0.0.1:8080")
            }
        }
        for item in secret {
            do { _ = try NamedSecret(parsing: item) } catch { throw ValidationError(error.description) }
        }
        guard let url = URL(string: baseUrl), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--base-url '\(baseUrl)' is not a URL like http://localhost:8080")
        }
    }

    func run() async throws {
        if url != nil || session != nil { return try await exportJournal() }
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

    /// The journal of a running server, as the server writes it (`GET /__stubd/requests?format=har`).
    private func exportJournal() async throws {
        let root = StubdClient(baseURL: URL(string: url ?? "http://127.0.0.1:8080")!)
        let client = session.map(root.sessionClient) ?? root
        var har: Data
        do { har = try await client.requestsHAR() } catch {
            if case StubdError.unreachable(let at, let reason)? = error as? StubdError {
                printError("stubd export har: no stubd answers at \(at) (\(reason)); name the running one with --url")
            } else {
                printError("stubd export har: \(error)")
            }
            throw ExitCode(1)
        }
        // Values the server was not told to hide (`serve --secret`), hidden in the file all the same.
        let secrets = secret.compactMap { try? NamedSecret(parsing: $0) }
        if !secrets.isEmpty { har = SecretMasker(secrets.map { ($0.value, $0.placeholder) }).mask(har) }
        if let output {
            do { try har.write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
                printError("stubd export har: cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        } else {
            FileHandle.standardOutput.write(har)
        }
        let entries = (try? JSONSerialization.jsonObject(with: har) as? [String: Any])
            .flatMap { ($0["log"] as? [String: Any])?["entries"] as? [Any] }?.count ?? 0
        printError("stubd export har: \(entries) request\(entries == 1 ? "" : "s") of \(session.map { "session \($0)" } ?? "the default session") at \(root.baseURL.absoluteString)"
                   + (output.map { " written to \($0)" } ?? ""))
    }
}

import ArgumentParser
import Foundation
import Stubd
import StubdCore
import StubdEngine

struct Drift: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tell whether the real API still answers like the Stubs folder: replay its recorded requests and compare.",
        discussion: """
        Each request the folder's recorded routes stand for (stubd.recorded.yml and convention files; \
        with --all, also stubd.yml routes with one concrete request) is sent to the API twice (GET, HEAD and OPTIONS only, unless --unsafe). Status, \
        content type, kept headers and JSON bodies are compared, by shape first (a field added, removed \
        or of another type), then by value. What differs between the two live answers is volatile and \
        reported apart; drift.ignore in stubd.yml silences known places. With --spec, each live answer is \
        also held against the spec, as `stubd check --spec` holds the stubs. Exit 1 on shape drift or \
        when a live answer breaks the spec, 2 when \
        the run stopped early (a 429, --timeout, an unreachable API) without finding any or compared \
        no answer at all, 0 otherwise. \
        The folder is only read; --write DIR records the live answers elsewhere for review.
        """)

    @Option(name: .long, help: "The real API, e.g. https://api.openweathermap.org.")
    var target: String

    @OptionGroup var stubs: StubsOption

    @Option(name: .long, help: ArgumentHelp("Put this secret back into the requests: {NAME} path segments, <NAME> values, and a \"*\" query parameter or header called NAME (repeatable).", valueName: "NAME=VALUE"))
    var secret: [String] = []

    @Flag(name: .long, help: "Also replay the routes of stubd.yml that stand for one concrete request (a literal path, no wildcard).")
    var all = false

    @Flag(name: .long, help: "Also replay POST, PUT, PATCH and DELETE routes: each is sent twice, and may change data on the API each time.")
    var unsafe = false

    @Option(name: .long, help: ArgumentHelp("An OpenAPI 3.x or Swagger 2.0 spec (YAML or JSON, split across files or not): each live answer is also held against its operation's response. "
                                            + "Repeat it for an API described by several specs: each answer is held against the spec that declares its operation "
                                            + "(two specs declaring one operation are refused).", valueName: "file"))
    var spec: [String] = []

    @Flag(name: .customLong("strict-spec"), help: SpecOption.strictHelp)
    var strictSpec = false

    /// `--format`: a table for a person, JSON for a script.
    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(name: .long, help: "text (a table) or json.")
    var format: Format = .text

    @Option(name: .long, help: "At most this many requests per second to the API.")
    var rate: Double = 5

    @Option(name: .long, help: "Seconds for the whole run; then it stops and says what was not checked.")
    var timeout: Double = 120

    @Option(name: .long, help: ArgumentHelp("Record the live answers into this folder for review (never into the Stubs folder).", valueName: "dir"))
    var write: String?

    @Option(name: .long, help: "Answers larger than this many bytes are not compared.")
    var maxBody: Int = 10 << 20

    @Option(name: .long, help: ArgumentHelp("A CA bundle (PEM) to trust for an HTTPS target with its own certificates.", valueName: "file"))
    var caFile: String?

    @Flag(name: .long, help: "Do not verify the target's certificate (a local HTTPS upstream).")
    var insecure = false

    /// Checked by `validate`, so none is dropped here.
    var secrets: [NamedSecret] { secret.compactMap { try? NamedSecret(parsing: $0) } }

    func validate() throws {
        _ = try RecordingOptions.target(target)
        for item in secret {
            do { _ = try NamedSecret(parsing: item) } catch { throw ValidationError(error.description) }
        }
        // Bounded so the nanoseconds they become fit a UInt64 (1e-300 requests a second would not).
        guard rate >= 0.01, rate <= 10_000 else { throw ValidationError("--rate must be from 0.01 to 10000 requests per second, got \(rate)") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be more than 0 and at most 86400 seconds (a day), got \(timeout)") }
        guard maxBody > 0 else { throw ValidationError("--max-body must be more than 0 bytes") }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) { throw ValidationError("--ca-file \(caFile) cannot be read") }
        if let write, Drift.isInside(write, stubs.stubs) {
            throw ValidationError("--write \(write) is inside the Stubs folder \(stubs.stubs): drift never writes into the folder it checks; "
                                  + "name a folder outside it, e.g. --write ../Stubs.live")
        }
    }

    /// Whether `path` is `folder` or under it, symlinks resolved (as far as the path exists yet).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        func resolved(_ p: String) -> [String] {
            var url = URL(fileURLWithPath: p).standardizedFileURL
            var missing: [String] = []
            // Resolve the longest part that exists; a folder --write will create does not exist yet.
            while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
                missing.insert(url.lastPathComponent, at: 0)
                url.deleteLastPathComponent()
            }
            return url.resolvingSymlinksInPath().pathComponents + missing
        }
        let (inner, outer) = (resolved(path), resolved(folder))
        return inner.count >= outer.count && Array(inner.prefix(outer.count)) == outer
    }

    func run() async throws {
        let catalog: StubCatalog
        do { catalog = try StubCatalog.load(stubs: stubs.url) } catch {
            printError("stubd drift: \(error.description)")
            throw ExitCode(1)
        }
        var settings = DriftRunner.Settings(target: try RecordingOptions.target(target))
        settings.contracts = spec.isEmpty ? nil : try SpecOption.load(spec, command: "stubd drift", strict: strictSpec)
        settings.secrets = secrets
        settings.includeHandWritten = all
        settings.unsafeMethods = unsafe
        settings.rate = rate
        settings.timeoutSeconds = timeout
        settings.maxBodyBytes = maxBody
        settings.caFile = caFile
        settings.insecure = insecure
        var recorder: StubsRecorder?
        if let write {
            do {
                recorder = try StubsRecorder(root: URL(fileURLWithPath: write),
                                             rules: RecordingRules(secrets: secrets, targetOrigin: settings.target.origin), mode: .all)
            } catch {
                printError("stubd drift: cannot write into \(write): \(error)")
                throw ExitCode(1)
            }
        }
        let report = await DriftRunner(settings, writingInto: recorder).run(catalog: catalog)
        print(format == .json ? report.json() : report.table())
        fflush(nil)
        if report.hasShapeDrift || report.hasContractDrift { throw ExitCode(1) }
        if report.stopped != nil { throw ExitCode(2) }
        // Routes there were, and none compared (each answer too large, refused, skipped): nothing
        // says the folder still matches the API, so the run does not pass.
        if !report.routes.isEmpty, !report.routes.contains(where: { $0.outcome == .compared }) {
            printError("stubd drift: no answer was compared (\(report.routes.count) route(s) failed or skipped; see each one's reason above)")
            throw ExitCode(2)
        }
    }
}

import ArgumentParser
import Foundation
import Logging
import Stubd
import StubdCore
import StubdEngine
import StubdProtocol

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve a Stubs folder on localhost (the default command).")

    enum LogFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    /// `--proxy-unknown`: what a request for a host the folder does not serve gets.
    enum UnknownHosts: String, ExpressibleByArgument, CaseIterable {
        case refuse, pass

        static var allValueDescriptions: [String: String] {
            ["refuse": "a 502 naming the host and how to serve it",
             "pass": "passed through to the real host: CONNECT as a blind tunnel, plain HTTP forwarded"]
        }
    }

    @OptionGroup var stubs: StubsOption

    @Option(name: .long, help: "Address to listen on (env STUBD_HOST). Loopback unless you say otherwise; 0.0.0.0 for every interface.")
    var host: String = ProcessInfo.processInfo.environment["STUBD_HOST"] ?? "127.0.0.1"

    @Option(name: .long, help: "Port; 0 picks a free one (env STUBD_PORT).")
    var port: UInt16 = UInt16(ProcessInfo.processInfo.environment["STUBD_PORT"] ?? "") ?? 8080

    @Flag(inversion: .prefixedNo, help: "Reload the folder when it changes.")
    var watch = true

    @Option(name: .long, help: "How log lines are written.")
    var logFormat: LogFormat = .text

    @Option(name: .long, help: "The least severe line written; info writes one line per request.")
    var logLevel: Logger.Level = .info

    @Option(name: .long, help: "Worker threads.")
    var threads: Int = 2

    @Option(name: .long, help: "Connections held at once; one more gets a 503 (default: 1000, or half the descriptor limit).")
    var maxConnections: Int = StubServer.defaultMaxConnections

    @Option(name: .long, help: "Named sessions held at once; past it the one unused longest is dropped.")
    var maxSessions: Int = 1000

    @Option(name: .long, help: ArgumentHelp("Bytes all sessions together keep of what they were sent (journal bodies, WebSocket messages, scenario keys); past it the session unused longest gives its up, and a write that still does not fit gets a 507 (default 512 MiB).", valueName: "bytes"))
    var sessionStorage: Int = SessionStorage.defaultLimit

    @Option(name: .long, help: ArgumentHelp("Bytes a template may render for one answer; past it the request gets a 500 naming this cap (default 8 MiB).", valueName: "bytes"))
    var maxRender: Int = StubEngine.defaultMaxRenderedBytes

    @Option(name: .long, help: ArgumentHelp("Token every admin call but health must send as Authorization: Bearer (env STUBD_ADMIN_TOKEN). Without one, a server listening beyond loopback keeps its admin API closed.", valueName: "token"))
    var adminToken: String = ProcessInfo.processInfo.environment["STUBD_ADMIN_TOKEN"] ?? ""

    @Option(name: .long, help: ArgumentHelp("A Host name admin calls may use besides localhost and IP addresses, e.g. a compose service name (repeatable; env STUBD_ALLOWED_HOSTS, comma-separated).", valueName: "name"))
    var allowHost: [String] = (ProcessInfo.processInfo.environment["STUBD_ALLOWED_HOSTS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }

    @Option(name: .long, help: ArgumentHelp("A request header the journal shows masked, besides Authorization, Cookie and Proxy-Authorization (repeatable).", valueName: "name"))
    var maskHeader: [String] = []

    @Option(name: .long, help: ArgumentHelp("In proxy mode, a host the folder's top level answers (repeatable); a top-level folder named after a host answers that host without it.", valueName: "name"))
    var asHost: [String] = []

    @Option(name: .long, help: ArgumentHelp("In proxy mode, what a request for a host the folder does not serve gets:"))
    var proxyUnknown: UnknownHosts = .refuse

    @Option(name: .long, help: ArgumentHelp("With --proxy-unknown pass, a tunnel with no byte either way, or whose one end takes none, for this many seconds is closed.", valueName: "seconds"))
    var tunnelIdle: Int32 = 300

    @Flag(name: .long, help: "Serve HTTPS on --port instead of HTTP, with certificates from the local CA (see `stubd ca`).")
    var tls = false

    @Option(name: .long, help: ArgumentHelp("Serve HTTPS on this port beside HTTP on --port (0 picks a free one).", valueName: "port"))
    var tlsPort: UInt16?

    @OptionGroup var ca: CAOption

    @Option(name: .long, help: ArgumentHelp("Forward requests no stub answers to this API (and journal them as proxied).", valueName: "url"))
    var proxy: String?

    @Option(name: .long, help: ArgumentHelp("Write the whole server's coverage (JSON, as `stubd coverage --format json`) to this file when it stops (env STUBD_COVERAGE_OUT).", valueName: "file"))
    var coverageOut: String = ProcessInfo.processInfo.environment["STUBD_COVERAGE_OUT"] ?? ""

    /// `--coverage-out`, when given (an empty value, as compose passes an unset variable, is none).
    private var coverageFile: CoverageFile? { coverageOut.isEmpty ? nil : CoverageFile(path: coverageOut) }

    @Flag(name: .long, help: "With --proxy: write what the API answers into the Stubs folder, as `stubd record` does.")
    var recordMissing = false

    @OptionGroup(title: "Recording (with --proxy)") var recording: RecordingOptions

    @Option(name: .long, help: ArgumentHelp("An OpenAPI 3.x or Swagger 2.0 spec (YAML or JSON, split across files or not): a stub answer that breaks it fails the load, as a malformed stub does. "
                                            + "Repeat it for a folder holding several specs' stubs: each request and route is judged by the spec that declares its operation, "
                                            + "and errors name that spec (two specs declaring one operation are refused at start).", valueName: "file"))
    var spec: [String] = []

    @Flag(name: .customLong("strict-spec"), help: SpecOption.strictHelp)
    var strictSpec = false

    @Option(name: .customLong("validate"), help: ArgumentHelp("With --spec or --graphql-schema, what a request that breaks the spec or the schema gets:", valueName: "requests=mode"))
    var validation: RequestValidationMode?

    @Option(name: .long, help: SchemaFormatMode.help)
    var formats: SchemaFormatMode = .annotate

    @Option(name: .customLong("graphql-schema"), help: GraphQLSchemaOption.help)
    var graphQLSchema: String?

    func validate() throws {
        if recordMissing, proxy == nil { throw ValidationError("--record-missing needs --proxy URL: where to fetch what is missing") }
        // A recording flag without forwarding would change nothing, silently: a --secret the user
        // believes protects a key would protect nothing.
        // `--proxy-unknown pass` forwards too: it takes the flags that say how to reach a host.
        let passThroughFlags: Set<String> = proxyUnknown == .pass ? ["--timeout", "--upstream-proxy"] : []
        if proxy == nil, let flag = recording.flagsGiven.first(where: { !passThroughFlags.contains($0) }) {
            let forwards = proxyUnknown == .pass ? "this serve forwards only hosts the folder does not serve (--proxy-unknown pass), which takes --timeout and --upstream-proxy alone"
                                                  : "this serve forwards nothing"
            throw ValidationError("\(flag) applies to forwarding, and \(forwards): add --proxy URL (and --record-missing to write what it answers), or drop \(flag)")
        }
        if !recordMissing, let flag = recording.flagsGiven.first(where: { ["--match-header", "--mode", "--allow-ci", "--pretty-json", "--only"].contains($0) }) {
            throw ValidationError("\(flag) applies to recording, and this serve writes nothing: add --record-missing, or drop \(flag)")
        }
        if tls, tlsPort != nil { throw ValidationError("--tls makes --port speak HTTPS, and --tls-port adds an HTTPS port beside plain HTTP: give one of them") }
        if let validation {
            guard !spec.isEmpty || graphQLSchema != nil else {
                throw ValidationError("--validate \(validation.argument) says what to do with requests that break a spec or a GraphQL schema: add --spec FILE or --graphql-schema FILE")
            }
        }
        guard tunnelIdle >= 1, tunnelIdle <= 86_400 else { throw ValidationError("--tunnel-idle must be between 1 and 86400 seconds, got \(tunnelIdle)") }
        guard threads >= 1, threads <= 64 else { throw ValidationError("--threads must be between 1 and 64, got \(threads)") }
        guard maxSessions >= 1, maxSessions <= 1_000_000 else {
            throw ValidationError("--max-sessions must be between 1 and 1000000, got \(maxSessions)")
        }
        guard maxConnections >= 1, maxConnections <= 1_000_000 else {
            throw ValidationError("--max-connections must be between 1 and 1000000, got \(maxConnections)")
        }
        guard sessionStorage >= 1 else { throw ValidationError("--session-storage must be at least 1 byte, got \(sessionStorage)") }
        guard maxRender >= 1 else { throw ValidationError("--max-render must be at least 1 byte, got \(maxRender)") }
        if let problem = coverageFile?.problem() { throw ValidationError(problem) }
    }

    func run() throws {
        let writer = LogWriter(json: logFormat == .json, masking: recording.logMasking)
        let logger = makeLogger(writer: writer, level: logLevel)
        var options = StubServer.Options()
        options.threads = threads
        options.maxConnections = maxConnections
        options.maxSessions = maxSessions
        options.maxRenderedBytes = maxRender
        options.sessionStorageBytes = sessionStorage
        options.adminToken = adminToken.isEmpty ? nil : adminToken
        options.allowedHosts = allowHost
        options.asHosts = asHost
        options.passUnknownHosts = proxyUnknown == .pass
        options.upstream = recording.upstream
        options.tunnelIdleSeconds = tunnelIdle
        // Always set: a CONNECT (a client's HTTPS_PROXY) is answered with TLS from the CA, which is made
        // then, on first use, unless a port speaks TLS from the start.
        options.tls = TLSOptions(caDirectory: ca.directory, onMainPort: tls, extraPort: tlsPort)
        options.maskedHeaders = maskHeader
        options.maskedSecrets = recording.secrets
        options.notice = { message in logger.notice("\(message)") }
        options.watch = watch
        if logLevel <= .info {
            // Straight to the writer: the worker only stamps the time; the line is built on the writer's thread.
            options.requestLog = { line in writer.enqueue(.request(line, time: Date())) }
        }
        options.reloadLog = { result in
            switch result {
            case .success(let catalog):
                logger.notice("reloaded \(catalog.routes.count) routes from \(stubs.stubs)")
            case .failure(let error):
                // One line per problem, each starting with its file:line:column: the block `check`
                // prints would be one log line with its newlines escaped.
                let noun = error.problems.count == 1 ? "problem" : "problems"
                logger.error("reload failed: \(error.problems.count) \(noun) in \(stubs.stubs); still serving the previous catalog")
                for problem in error.problems { logger.error("\(problem.description)") }
            }
        }
        if !spec.isEmpty {
            let contracts = try SpecOption.load(spec, command: "stubd", formats: formats, strict: strictSpec)
            options.contracts = contracts
            options.requestValidation = validation ?? .report
        }
        if let graphQLSchema {
            options.graphQLSchema = try GraphQLSchemaOption.load(graphQLSchema, command: "stubd")
            options.requestValidation = validation ?? .report
        }
        if let proxy {
            options.forwarding = try recording.forwarding(target: try RecordingOptions.target(proxy), scope: .misses,
                                                          record: recordMissing ? stubs.url : nil, logger: logger)
        }
        // Caught from before the first line: a SIGTERM right after it is not lost.
        let shutdown = ShutdownSignals()
        let server: StubServer
        do {
            server = try StubServer(stubs: stubs.url, host: host, port: port, options: options)
        } catch let error as CatalogLoadError {
            printError("stubd: cannot serve \(stubs.stubs): \(error.description)")
            throw ExitCode(1)
        } catch {
            printError("stubd: \(error)")
            throw ExitCode(1)
        }
        // Scripts and the test fixtures read the port from this exact first line.
        print("stubd listening on \(server.baseURL.absoluteString) (\(server.engine.catalog.routes.count) routes from \(stubs.stubs))")
        if let https = server.httpsURL, https != server.baseURL { print("stubd listening on \(https.absoluteString) (TLS)") }
        if let contracts = options.contracts {
            // Said once, where a user looks first: which specs judge requests, and that report mode
            // serves a request that breaks one.
            let specs = contracts.contracts.map { contract in
                "--spec \(contract.specName) (OpenAPI \(contract.version), \(contract.operations.count) operation\(contract.operations.count == 1 ? "" : "s"))"
            }
            print("stubd \(specs.joined(separator: " ")), \(options.requestValidation.startupDescription)")
        }
        if let schema = options.graphQLSchema, let graphQLSchema {
            let requests = switch options.requestValidation {
            case .report: "a GraphQL request that breaks it gets the stub's answer, its problems in an X-Stubd-Contract header, the journal and the log; --validate requests=strict answers 400 and the errors a server sends"
            case .strict: "a GraphQL request that breaks it gets 400 and the errors a server sends (GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT)"
            case .off: "GraphQL requests are not held to it"
            }
            print("stubd --graphql-schema \(GraphQLSchemaOption.summary(graphQLSchema, schema)): every GraphQL stub's answer keeps to it; requests=\(options.requestValidation.rawValue): \(requests)")
        }
        if server.httpsURL != nil { print("stubd CA certificate: \(ca.directory.appendingPathComponent("ca.pem").path) (trust it in the client)") }
        fflush(nil)
        if let contracts = options.contracts {
            // Logged only now, after the lines above: the log has a writer thread of its own, so a
            // notice logged before them came out first, and a script reading the port from the first
            // line (`head -1`, scripts/test's compose step) read a notice instead. The catalog judged
            // is the one being served, not a second load of the folder.
            for notice in StubContractCheck(catalog: server.engine.catalog, contracts: contracts).notices { logger.notice("\(notice)") }
        }
        if !["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) {
            let admin = adminToken.isEmpty
                ? "its admin API is closed until you give --admin-token or STUBD_ADMIN_TOKEN"
                : "admin calls need the admin token"
            logger.warning("listening on \(host): reachable from other machines; \(admin)")
        }
        shutdown.wait()
        // Stopped first: requests in flight finish, so the report holds what the last ones counted.
        server.stopSynchronously()
        var coverageLost = false
        if let coverageFile {
            let report = server.admin.coverage(of: nil)
            if let failure = coverageFile.write(report) {
                logger.error("coverage not written: \(failure)")
                coverageLost = true
            } else {
                logger.notice("coverage written to \(coverageOut): \(report.summary.covered) of \(report.summary.items) items (\(report.summary.percent)%)")
            }
        }
        logger.notice("stopped")
        // Bounded: with output blocked, what is still queued is lost rather than the exit.
        writer.flush(within: 0.3)
        fflush(nil)
        // A CI job that asked for the report must not pass without it (the folder went away, the disk filled).
        if coverageLost { throw ExitCode(1) }
    }
}

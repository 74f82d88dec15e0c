public import Foundation
import Synchronization

/// Everything a Stubs directory says: its routes (files and manifest), quotas and clock.
/// Loaded whole and immutable, with no runtime state: hits, sequences and quotas live in sessions,
/// the transport's prepared answers in the transport. A reload builds a new catalog and swaps it in.
public final class StubCatalog: Sendable {
    /// The Stubs directory.
    public let root: URL
    /// Identifies this catalog among every one this process has built: sessions and the transport
    /// key what they keep per route or per answer by it.
    package let generation: UInt64
    /// Manifest routes first, then convention files in path order; `routes[i].index == i`.
    public let routes: [Route]
    /// Every route's answers in one list (the transport prepares each before the catalog is in force).
    package let responses: [CannedResponse]
    /// Named routes by name.
    private let named: [String: Route]
    package let quotas: [QuotaDefinition]
    package let clock: ClockSetting
    /// `defaults.queryNames: any-case`; runtime stubs follow it too.
    package let queryNamesIgnoreCase: Bool
    /// How many files the convention scan read.
    public let fileCount: Int
    let matcher: RouteMatcher
    /// Whether any quota counts per client address (the transport only formats it then).
    package let usesClientAddress: Bool
    /// Top-level folders named after a host (`Stubs/api.example.com/`), each answering that host in
    /// proxy mode: lower-case name → the folder's spelling (see `HostScope`).
    package let hostFolders: [String: String]
    /// `drift.ignore` of stubd.yml: places in answers `stubd drift` leaves out.
    package let driftIgnore: [DriftIgnoreRule]
    /// Whether any route takes a `Prefer` header: only then (or with a spec, or runtime stubs) is a
    /// request's `Prefer` that no stub answers worth reading (`StubEngine.unmetPreference`).
    package let takesPrefer: Bool
    /// `resources:` of stubd.yml, by name (their routes are among `routes`).
    package let resources: [String: ResourceDefinition]
    /// Scenario name → the states its routes answer in or move into, `Started` first.
    package let scenarios: [String: [String]]
    /// Scenario name → a step of it carrying its key, cap and timed moves (see `scenarioSteps(of:)`).
    package let scenarioSteps: [String: ScenarioStep]
    /// Where GraphQL routes listen and the hashes of their queries; nil without any, so a request
    /// pays one nil check for GraphQL.
    package let graphQL: GraphQLEndpoints?

    private static let generations = Atomic<UInt64>(0)

    package init(root: URL, routes: [Route], quotas: [QuotaDefinition], clock: ClockSetting, fileCount: Int,
         queryNamesIgnoreCase: Bool = false, driftIgnore: [DriftIgnoreRule] = []) {
        self.root = root
        self.resources = Dictionary(routes.compactMap { $0.resource.map { ($0.resource.name, $0.resource) } },
                                    uniquingKeysWith: { first, _ in first })
        self.driftIgnore = driftIgnore
        generation = StubCatalog.generations.add(1, ordering: .relaxed).newValue
        self.routes = routes.enumerated().map { i, route in
            route.placed(index: i, quotas: StubCatalog.quotas(in: quotas, covering: route))
        }
        self.responses = self.routes.flatMap(\.responses)
        self.named = Dictionary(self.routes.compactMap { r in r.name.map { ($0, r) } }, uniquingKeysWith: { first, _ in first })
        self.quotas = quotas
        self.clock = clock
        self.queryNamesIgnoreCase = queryNamesIgnoreCase
        self.fileCount = fileCount
        self.matcher = RouteMatcher(routes: self.routes)
        self.usesClientAddress = quotas.contains { $0.key == .ip }
        self.hostFolders = HostScope.hostFolders(of: self.routes)
        self.takesPrefer = self.routes.contains { $0.conditions.headers.contains { $0.name == "prefer" } }
        self.scenarios = StubCatalog.scenarioStates(of: self.routes)
        self.scenarioSteps = StubCatalog.scenarioSteps(of: self.routes)
        self.graphQL = GraphQLEndpoints(routes: self.routes)
    }

    /// Each scenario's step that says most of it: a keyed route's (its key, cap and timed moves), else the first.
    package static func scenarioSteps(of routes: [Route]) -> [String: ScenarioStep] {
        var steps: [String: ScenarioStep] = [:]
        for route in routes {
            guard let step = route.scenario else { continue }
            if steps[step.name] == nil || (steps[step.name]?.key == nil && step.key != nil) { steps[step.name] = step }
        }
        return steps
    }

    /// Scenario name → the states `routes` answer in or move into, `Started` first and the rest in order.
    package static func scenarioStates(of routes: [Route]) -> [String: [String]] {
        var states: [String: Set<String>] = [:]
        for route in routes {
            guard let step = route.scenario else { continue }
            states[step.name, default: []].formUnion([step.whenState, step.thenState].compactMap { $0 })
            states[step.name, default: []].formUnion(step.moves.flatMap { [$0.from, $0.to] })
        }
        return states.mapValues { [ScenarioStep.started] + $0.subtracting([ScenarioStep.started]).sorted() }
    }

    /// This catalog with `route` in force too, in place of any route taking the same requests: what
    /// `serve --proxy --record-missing` has just written answers at once, not only once the watcher
    /// has reloaded the folder (and with `--no-watch`, not never).
    package func amended(with route: Route) -> StubCatalog {
        let identity = RouteIdentity(route)
        let kept = routes.filter { $0.key != route.key && RouteIdentity($0) != identity }
        return StubCatalog(root: root, routes: kept + [route], quotas: quotas, clock: clock, fileCount: fileCount,
                           queryNamesIgnoreCase: queryNamesIgnoreCase, driftIgnore: driftIgnore)
    }

    /// Loads a Stubs directory, or throws every problem in it at once. An unchanged directory
    /// loaded before is not parsed again (see `CatalogCache`).
    public static func load(stubs: URL) throws(CatalogLoadError) -> StubCatalog {
        let root = stubs.standardizedFileURL.path
        let fingerprint = CatalogCache.fingerprint(of: root)
        if let fingerprint, let cached = CatalogCache.lookup(root: root, fingerprint: fingerprint) { return cached }
        let catalog = try parse(stubs: stubs)
        if let fingerprint { CatalogCache.store(root: root, fingerprint: fingerprint, catalog: catalog) }
        return catalog
    }

    private static func parse(stubs: URL) throws(CatalogLoadError) -> StubCatalog {
        let reader = StubFileReader(root: stubs)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: reader.root.path, isDirectory: &isDirectory)
        guard exists, isDirectory.boolValue else {
            // A single stub file given where the folder goes is a common first try.
            throw CatalogLoadError(root: stubs.path, problems: [LoadProblem(
                file: stubs.path, message: exists ? "is a file, not a folder" : "no such directory",
                hint: exists
                    ? "pass the folder that holds it: --stubs \(stubs.deletingLastPathComponent().path)"
                    : "pass --stubs with the folder of stub files (default ./Stubs)")])
        }
        var problems = ProblemList()
        var manifest = ManifestParser.Manifest()
        let manifestNames = ManifestFile.names.filter {
            FileManager.default.fileExists(atPath: reader.root.appendingPathComponent($0).path)
        }
        if manifestNames.count > 1 {
            problems.add(manifestNames[1], "more than one manifest (\(manifestNames.joined(separator: ", ")))",
                         hint: "keep one; stubd reads \(manifestNames[0])")
        }
        if let name = manifestNames.first {
            let path = reader.root.appendingPathComponent(name).path
            if let data = FileManager.default.contents(atPath: path) {
                // YAML would take a stubd.json with trailing commas or comments; a JSON file is held to
                // JSON, as JSON stub files are, so it parses the same in every other tool.
                var strictJSON: JSONSyntaxError?
                if name == "stubd.json" {
                    do { _ = try JSONParser.parse(data) } catch { strictJSON = error }
                }
                if let error = strictJSON {
                    problems.add(name, line: error.line, column: error.column, "not valid JSON: \(error.message)",
                                 hint: "stubd.json must be strict JSON (no trailing commas or comments); stubd.yml takes YAML")
                } else {
                    var parser = ManifestParser(file: name, reader: reader)
                    manifest = parser.parse(String(decoding: data, as: UTF8.self))
                    for p in parser.problems.items { problems.add(p) }
                }
            } else {
                problems.add(name, "cannot read the manifest", hint: "check its permissions")
            }
        }
        // Routes `stubd record` wrote: a manifest of their own after the user's, under its defaults.
        let recordedPath = reader.root.appendingPathComponent(ManifestFile.recorded).path
        if let data = FileManager.default.contents(atPath: recordedPath) {
            var parser = ManifestParser(file: ManifestFile.recorded, reader: reader)
            parser.defaultHeaders = manifest.defaultHeaders
            parser.defaultDelay = manifest.defaultDelay
            parser.defaultQueryNamesIgnoreCase = manifest.queryNamesIgnoreCase
            let recorded = parser.parse(String(decoding: data, as: UTF8.self))
            if !recorded.quotas.isEmpty || recorded.clock != .system || !recorded.driftIgnore.isEmpty {
                problems.add(ManifestFile.recorded, "holds quotas, a clock or drift rules",
                             hint: "those belong in stubd.yml; this file holds recorded routes")
            }
            manifest.routes += recorded.routes
            for p in parser.problems.items { problems.add(p) }
        }
        var scanner = ConventionScanner(reader: reader)
        scanner.scan(defaultHeaders: manifest.defaultHeaders)
        for p in scanner.problems.items { problems.add(p) }

        let routes = manifest.routes + scanner.routes
        validate(routes: manifest.routes, quotas: manifest.quotas, all: routes, failedRouteNames: manifest.failedRouteNames, problems: &problems)
        guard problems.isEmpty else { throw CatalogLoadError(root: stubs.path, problems: problems.items) }
        return StubCatalog(root: reader.root, routes: routes, quotas: manifest.quotas, clock: manifest.clock,
                           fileCount: scanner.fileCount, queryNamesIgnoreCase: manifest.queryNamesIgnoreCase,
                           driftIgnore: manifest.driftIgnore)
    }

    /// The route with this name, if any.
    public func route(named name: String) -> Route? { named[name] }

    /// Parses a runtime stub (the JSON shape of a manifest route). Files it names are read from this
    /// catalog's root. `index` orders it among the session's runtime stubs (lower wins ties).
    package func parseRuntimeStub(_ json: String, id: String, index: Int) throws(CatalogLoadError) -> Route {
        var parser = ManifestParser(file: "stub", reader: StubFileReader(root: root))
        parser.defaultQueryNamesIgnoreCase = queryNamesIgnoreCase
        // A runtime stub joining a scenario of the folder's reads and moves it as the folder's routes
        // do: with the timed moves and maxKeys `scenarios:` gave it, which every route of it carries,
        // so one step per scenario (`scenarioSteps`, kept already) says them, not a walk of every route.
        parser.declaredScenarioSettings = scenarioSteps.mapValues { ($0.maxKeys, $0.maxKeysSource, $0.moves) }
        let route = parser.parseRuntimeRoute(json, id: id)
        guard let route, parser.problems.isEmpty else {
            throw CatalogLoadError(root: "runtime stub", problems: parser.problems.items.isEmpty
                ? [LoadProblem(file: "stub", message: "not a route")] : parser.problems.items)
        }
        return route.placed(index: index, quotas: StubCatalog.quotas(in: quotas, covering: route))
    }

    /// The quotas whose selectors cover `route`, set on each route before it is published.
    private static func quotas(in quotas: [QuotaDefinition], covering route: Route) -> [QuotaDefinition] {
        quotas.filter { q in q.selectors.contains { $0.covers(route) } }
    }

    /// Matches a request against this catalog's routes.
    /// `excluded`: indices of routes the session found used up (see `RouteMatcher.match`).
    package func match(_ request: RequestHead, excluding excluded: Set<Int> = []) -> MatchResult {
        matcher.match(request, excluding: excluded)
    }

    /// Checks that need the whole catalog: routes that can never answer, quotas that cover nothing.
    private static func validate(routes: [Route], quotas: [QuotaDefinition], all: [Route], failedRouteNames: Set<String>,
                                 problems: inout ProblemList) {
        // A name is how a test, a quota and the hit counts refer to a route: two routes under one
        // name would share a quota and sum their hits.
        var named: [String: Route] = [:]
        for route in routes {
            guard let name = route.name, case let .manifest(file, line) = route.source else { continue }
            if let first = named[name] {
                problems.add(file, line: line, "route name '\(name)' is used twice: at \(first.source) and here",
                             hint: "give each route its own name")
            } else {
                named[name] = route
            }
        }
        // Compared by shape: a parameter's name does not change which requests a path takes, so
        // `/u/{name}` after `/u/{id}` (or `greet/{code}.json` beside `greet/{zip}.json`) never answers.
        var seen: [RouteIdentity: Route] = [:]
        for route in all {
            let identity = RouteIdentity(route)
            // A route with `times` or a `whenState` steps aside at times, so the same requests reach the next one.
            if let earlier = seen[identity], earlier.times == nil, earlier.scenario?.whenState == nil {
                let renamed = earlier.pattern.text != route.pattern.text
                    ? "'\(earlier.pattern.text)' and '\(route.pattern.text)' differ only in parameter names, which matching ignores; " : ""
                switch route.source {
                case let .manifest(file, line):
                    problems.add(file, line: line, "this route can never match: the route at \(earlier.source) takes the same requests first",
                                 hint: renamed + "remove one, give this one a lower priority number, or add 'times' to the first")
                case .convention(let file):
                    problems.add(file, "this file can never answer: \(earlier.source) takes the same requests first",
                                 hint: renamed + "remove one of the two files, or make their paths differ")
                case .runtime:
                    continue
                }
            } else {
                seen[identity] = route
            }
        }
        let names = Set(all.compactMap(\.name))
        for quota in quotas {
            for selector in quota.selectors {
                let file = quota.source.split(separator: ":").first.map(String.init) ?? "stubd.yml"
                let line = selector.line ?? Int(quota.source.split(separator: ":").last ?? "")
                if let name = selector.routeName {
                    // A route of that name that failed to load has its own problem already: a second one here
                    // would read as another mistake (issue 62 item 5).
                    if !names.contains(name), !failedRouteNames.contains(name) {
                        let near = names.min { editDistance($0, name) < editDistance($1, name) }
                        let guess = near.flatMap { editDistance($0, name) <= max(2, name.count / 3) ? "did you mean '\($0)'? " : nil } ?? ""
                        problems.add(file, line: line, column: selector.column, "quota '\(quota.name)' names route '\(name)', which does not exist",
                                     hint: guess + "route names: " + (names.isEmpty ? "none (add name: to a route, or use a pattern like \"GET /api/**\")" : names.sorted().joined(separator: ", ")))
                    }
                } else if !all.contains(where: { selector.covers($0) }) {
                    problems.add(file, line: line, column: selector.column, "quota '\(quota.name)': pattern '\(selector.text)' matches no route",
                                 hint: "check it against `stubd routes`")
                }
            }
        }
    }
}

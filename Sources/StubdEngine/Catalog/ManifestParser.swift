import Foundation
import StubdProtocol
import Yams
import HTTPTypes

/// Reads `stubd.yml` (or `stubd.json`, or a runtime stub's JSON) into routes, quotas and settings,
/// collecting every problem with its line instead of stopping at the first.
package struct ManifestParser {
    static let manifestPriority = 5
    static let runtimePriority = 1

    package struct Manifest {
        var defaultHeaders = HTTPFields()
        var defaultDelay: Delay?
        package var routes: [Route] = []
        var quotas: [QuotaDefinition] = []
        /// The `name:` of each route entry that failed to load (its problems are said already): a
        /// quota naming one is not reported again as naming a route that does not exist.
        var failedRouteNames: Set<String> = []
        var clock: ClockSetting = .system
        var queryNamesIgnoreCase = false
        /// `drift: { ignore: [...] }`: places in answers `stubd drift` does not compare.
        var driftIgnore: [DriftIgnoreRule] = []
        /// `resources:`: collections answered per session, each by six routes of its own.
        var resources: [ResourceDefinition] = []
    }

    let file: String
    let reader: StubFileReader
    package var problems = ProblemList()
    var defaultHeaders = HTTPFields()
    var defaultDelay: Delay?
    /// `defaults.queryNames: any-case`: routes and quota keys compare query names in any case.
    package var defaultQueryNamesIgnoreCase = false
    /// Off for one route read alone (the recorder's check of a block it writes): the states other
    /// routes move into are not in view then; the whole folder's load checks them.
    package var checksScenarioStates = true
    /// The text being parsed, to place a problem inside an inline template where it was written.
    var source = YAMLSourceText("")
    /// Every route's scenario step with the nodes of its states, for `checkScenarioStates` once all are read.
    var scenarioMentions: [(step: ScenarioStep, when: Node?, then: Node?)] = []
    /// `scenarios:`: states a test puts a scenario in (the admin API) that no route moves into.
    var declaredScenarioStates: [String: (states: Set<String>, node: Node)] = [:]
    /// `scenarios: { order: { maxKeys: N, moves: […] } }`: what every route of the scenario carries in its step.
    var declaredScenarioSettings: [String: (maxKeys: Int, source: String?, moves: [ScenarioMove])] = [:]
    /// Each route's `scenarioKey:` node (nil: none), by scenario, for the check that a keyed scenario's routes all give one.
    var scenarioKeyMentions: [(name: String, key: Node?, scenario: Node)] = []

    /// Where a template's text came from, for the positions of its problems.
    enum TemplateOrigin {
        /// A file of its own: its lines are the template's.
        case file(String)
        /// A `body:` string in this manifest.
        case string(Node)
        /// A `json:` node of this manifest, serialized (as `text`) before it is parsed.
        case json(Node, text: String)
    }

    package init(file: String, reader: StubFileReader) {
        self.file = file
        self.reader = reader
    }

    // MARK: Document

    package mutating func parse(_ text: String) -> Manifest {
        var manifest = Manifest()
        source = YAMLSourceText(text)
        guard let root = compose(text) else { return manifest }
        guard let top = mapping(root, "the manifest") else { return manifest }
        checkKeys(top, ["defaults", "routes", "resources", "quotas", "clock", "drift", "scenarios"], in: "the manifest")
        if let scenarios = top["scenarios"] { parseDeclaredScenarios(scenarios) }

        if let defaults = top["defaults"], let map = mapping(defaults, "defaults") {
            checkKeys(map, ["headers", "delay", "queryNames"], in: "defaults")
            if let h = map["headers"] { defaultHeaders = headerFields(h, "defaults.headers") }
            if let n = map["queryNames"] { defaultQueryNamesIgnoreCase = queryNames(n) ?? false }
            if let d = map["delay"] { defaultDelay = delay(d) }
            manifest.defaultHeaders = defaultHeaders
            manifest.defaultDelay = defaultDelay
            manifest.queryNamesIgnoreCase = defaultQueryNamesIgnoreCase
        }
        if let routes = top["routes"] {
            if case .sequence(let items) = routes {
                for item in items {
                    let line = item.mark?.line ?? 0
                    if let route = parseRoute(item, source: .manifest(file: file, line: line), priority: ManifestParser.manifestPriority) {
                        manifest.routes.append(route)
                    } else if case .mapping(let entry) = item, let name = entry["name"]?.string {
                        manifest.failedRouteNames.insert(name)
                    }
                }
            } else {
                add(routes, "routes must be a list (each entry starts with '- ')")
            }
        }
        if checksScenarioStates { checkScenarioStates() }
        if let resources = top["resources"] {
            if case .sequence(let items) = resources {
                var seen = Set<String>()
                for item in items {
                    guard let resource = parseResource(item) else { continue }
                    if !seen.insert(resource.name).inserted {
                        add(item, "two resources are named '\(resource.name)'", hint: "give one a name: of its own")
                        continue
                    }
                    manifest.resources.append(resource)
                    manifest.routes += resource.routes(priority: ManifestParser.manifestPriority, headers: defaultHeaders)
                }
            } else {
                add(resources, "resources must be a list (each entry starts with '- ')")
            }
        }
        if let quotas = top["quotas"] {
            if case .sequence(let items) = quotas {
                var seen = Set<String>()
                for item in items {
                    guard let quota = parseQuota(item) else { continue }
                    if !seen.insert(quota.name).inserted { add(item, "two quotas are named '\(quota.name)'", hint: "give each quota its own name") }
                    manifest.quotas.append(quota)
                }
            } else {
                add(quotas, "quotas must be a list (each entry starts with '- ')")
            }
        }
        if let clock = top["clock"] { manifest.clock = parseClock(clock) }
        if let drift = top["drift"] { manifest.driftIgnore = parseDrift(drift) }
        return manifest
    }

    /// Parses one runtime stub (`POST /__stubd/stubs`) in the shape of a manifest route.
    mutating func parseRuntimeRoute(_ text: String, id: String) -> Route? {
        source = YAMLSourceText(text)
        guard let root = compose(text) else { return nil }
        return parseRoute(root, source: .runtime(id: id), priority: ManifestParser.runtimePriority)
    }

    mutating func compose(_ text: String) -> Node? {
        if let found = YAMLAnchors.first(in: text) {
            problems.add(file, line: found.line, column: found.column,
                         "YAML \(found.isAlias ? "alias *" : "anchor &")\(found.name) is not allowed: stubd refuses anchors and aliases, so a small file cannot expand into a huge one",
                         hint: "repeat the value (shared headers go under defaults.headers); quote a value that starts with '*' or '&'")
            return nil
        }
        do {
            guard let node = try Yams.compose(yaml: text, YAMLCoreSchema.resolver) else {
                add(nil, "the document is empty")
                return nil
            }
            return node
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
                problems.add(file, line: mark.line, column: mark.column, "not valid YAML: \(problem)",
                             hint: "check indentation and quoting around this spot")
            case .composer(_, let problem, let mark, _):
                problems.add(file, line: mark.line, column: mark.column, "not valid YAML: \(problem)")
            default:
                problems.add(file, "not valid YAML: \(error)")
            }
            return nil
        } catch {
            problems.add(file, "not valid YAML: \(error)")
            return nil
        }
    }
}

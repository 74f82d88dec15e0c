import Foundation
import StubdProtocol
import Yams
import HTTPTypes

/// Reads `stubd.yml` (or `stubd.json`, or a runtime stub's JSON) into routes, quotas and settings,
/// collecting every problem with its line instead of stopping at the first.
struct ManifestParser {
    static let manifestPriority = 5
    static let runtimePriority = 1

    struct Manifest {
        var defaultHeaders = HTTPFields()
        var defaultDelay: Delay?
        var routes: [Route] = []
        var quotas: [QuotaDefinition] = []
        var clock: ClockSetting = .system
        var queryNamesIgnoreCase = false
        /// `drift: { ignore: [...] }`: places in answers `stubd drift` does not compare.
        var driftIgnore: [DriftIgnoreRule] = []
    }

    let file: String
    let reader: StubFileReader
    var problems = ProblemList()
    var defaultHeaders = HTTPFields()
    var defaultDelay: Delay?
    /// `defaults.queryNames: any-case`: routes and quota keys compare query names in any case.
    var defaultQueryNamesIgnoreCase = false
    /// The text being parsed, to place a problem inside an inline template where it was written.
    private var source = YAMLSourceText("")

    /// Where a template's text came from, for the positions of its problems.
    private enum TemplateOrigin {
        /// A file of its own: its lines are the template's.
        case file(String)
        /// A `body:` string in this manifest.
        case string(Node)
        /// A `json:` node of this manifest, serialized (as `text`) before it is parsed.
        case json(Node, text: String)
    }

    init(file: String, reader: StubFileReader) {
        self.file = file
        self.reader = reader
    }

    // MARK: Document

    mutating func parse(_ text: String) -> Manifest {
        var manifest = Manifest()
        source = YAMLSourceText(text)
        guard let root = compose(text) else { return manifest }
        guard let top = mapping(root, "the manifest") else { return manifest }
        checkKeys(top, ["defaults", "routes", "quotas", "clock", "drift"], in: "the manifest")

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
                    }
                }
            } else {
                add(routes, "routes must be a list (each entry starts with '- ')")
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

    private mutating func compose(_ text: String) -> Node? {
        if let found = YAMLAnchors.first(in: text) {
            problems.add(file, line: found.line, column: found.column,
                         "YAML \(found.isAlias ? "alias *" : "anchor &")\(found.name) is not allowed: stubd refuses anchors and aliases, so a small file cannot expand into a huge one",
                         hint: "repeat the value (shared headers go under defaults.headers); quote a value that starts with '*' or '&'")
            return nil
        }
        do {
            guard let node = try Yams.compose(yaml: text) else {
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

    // MARK: Routes

    private mutating func parseRoute(_ node: Node, source: RouteSource, priority defaultPriority: Int) -> Route? {
        guard let map = mapping(node, "a route") else { return nil }
        checkKeys(map, ["name", "request", "response", "responses", "priority", "times", "cycle", "delay"], in: "a route")
        let problemsBefore = problems.items.count
        let name = map["name"].flatMap { string($0, "name") }
        guard let requestNode = map["request"] else {
            add(node, "a route needs a 'request' with at least a path", hint: "request: { path: /example }")
            return nil
        }
        guard let request = parseRequest(requestNode) else { return nil }

        let routeDelay = map["delay"].flatMap { delay($0) } ?? defaultDelay
        var responses: [CannedResponse] = []
        switch (map["response"], map["responses"]) {
        case (let single?, nil):
            if let r = parseResponse(single, routeDelay: routeDelay, parameters: request.pattern.parameterNames) { responses = [r] }
        case (nil, let list?):
            if case .sequence(let items) = list {
                if items.isEmpty { add(list, "'responses' is empty", hint: "list at least one response, or use 'response'") }
                for item in items { if let r = parseResponse(item, routeDelay: routeDelay, parameters: request.pattern.parameterNames) { responses.append(r) } }
            } else {
                add(list, "'responses' must be a list of responses", hint: "or use 'response' for a single one")
            }
        case (_?, _?):
            add(node, "a route has either 'response' or 'responses', not both")
        case (nil, nil):
            // A misspelt 'response' is already reported as an unknown key; once is enough.
            let misspelt = map.keys.contains { key in key.string.map { editDistance($0, "response") <= 2 || editDistance($0, "responses") <= 2 } ?? false }
            if !misspelt {
                add(node, "a route needs a 'response' (or a 'responses' sequence)", hint: "response: { status: 200, file: example.json }")
            }
        }

        let priority = map["priority"].flatMap { int($0, "priority") } ?? defaultPriority
        var times: Int?
        if let t = map["times"], let n = int(t, "times") {
            if n < 1 { add(t, "'times' must be at least 1", hint: "remove the route to never serve it") } else { times = n }
        }
        let cycle = map["cycle"].flatMap { bool($0, "cycle") } ?? false
        guard problems.items.count == problemsBefore, !responses.isEmpty else { return nil }
        return Route(name: name, method: request.method, pattern: request.pattern, conditions: request.conditions,
                     responses: responses, cycle: cycle, times: times, priority: priority, source: source)
    }

    private mutating func parseRequest(_ node: Node) -> (method: MethodMatch, pattern: PathPattern, conditions: RequestConditions)? {
        guard let map = mapping(node, "request") else { return nil }
        checkKeys(map, ["method", "path", "query", "queryNames", "headers", "body"], in: "request")
        var method = MethodMatch.only("GET")
        if let m = map["method"], let text = string(m, "method") {
            let upper = text.uppercased()
            if upper == "ANY" { method = .any }
            else if ConventionScanner.methods.contains(upper) { method = .only(upper == "HEAD" ? "GET" : upper) }
            else { add(m, "unknown method '\(text)'", hint: "one of GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD, ANY") }
        }
        guard let pathNode = map["path"] else {
            add(node, "request needs a 'path'", hint: "path: /data/2.5/weather")
            return nil
        }
        guard let pathText = string(pathNode, "path") else { return nil }
        let pattern: PathPattern
        do { pattern = try PathPattern(parsing: pathText) } catch {
            add(pathNode, "bad path '\(pathText)': \(error.description)")
            return nil
        }
        var conditions = RequestConditions()
        conditions.queryNamesIgnoreCase = map["queryNames"].flatMap { queryNames($0) } ?? defaultQueryNamesIgnoreCase
        if let q = map["query"] {
            let anyCase = conditions.queryNamesIgnoreCase
            conditions.query = queryConditions(q).map { .init(name: anyCase ? $0.name.lowercased() : $0.name, value: $0.value) }
        }
        if let h = map["headers"] {
            conditions.headers = headerConditions(h)
        }
        if let b = map["body"], let body = mapping(b, "body") {
            checkKeys(body, ["json", "contains"], in: "body")
            if let j = body["json"] { conditions.body = .json(json(j)) }
            else if let c = body["contains"], let text = string(c, "contains") { conditions.body = .contains(text) }
            else { add(b, "body needs 'json' or 'contains'", hint: "body: { json: { units: metric } }") }
        }
        return (method, pattern, conditions)
    }

    /// `parameters`: the route's `{names}`, which a template may use; nil where templates are not
    /// rendered (a quota's `exceeded` answer).
    private mutating func parseResponse(_ node: Node, routeDelay: Delay?, parameters: [String]?) -> CannedResponse? {
        guard let map = mapping(node, "a response") else { return nil }
        checkKeys(map, ["status", "headers", "file", "body", "json", "delay", "fault", "throttle", "quotaStatus", "template"], in: "a response")
        let templated = map["template"].flatMap { bool($0, "template") } ?? false
        if templated, parameters == nil, let t = map["template"] {
            add(t, "a quota's exceeded answer is not a template", hint: "remove 'template'; the quota's own headers say what is left")
        }
        // Where the template's text starts, for its errors: a file's own lines, or the manifest's.
        var templateOrigin: TemplateOrigin?
        var status = 200
        if let s = map["status"], let n = int(s, "status") {
            if (100...599).contains(n) { status = n } else { add(s, "status \(n) is not an HTTP status", hint: "use 100–599") }
        }
        let ownHeaders = map["headers"].map { headerFields($0, "headers") } ?? HTTPFields()
        var headers = HTTPFields(defaultHeaders.filter { ownHeaders[$0.name] == nil })
        var body = Data()
        var contentType: String?
        var bodySource: String?
        var fault: Fault?
        if let f = map["fault"], let text = string(f, "fault") {
            if let parsed = Fault(rawValue: text) { fault = parsed }
            else { add(f, "unknown fault '\(text)'", hint: "one of " + Fault.allCases.map(\.rawValue).joined(separator: ", ")) }
        }
        let bodyKeys = ["file", "body", "json", "quotaStatus"].filter { map[$0] != nil }
        if bodyKeys.count > 1 { add(node, "a response has one of 'file', 'body', 'json' or 'quotaStatus', not \(bodyKeys.joined(separator: " and "))") }
        var quotaStatus: QuotaStatusStyle?
        if let q = map["quotaStatus"], let text = string(q, "quotaStatus") {
            if let style = QuotaStatusStyle(rawValue: text) { quotaStatus = style; contentType = ContentType.json }
            else { add(q, "unknown quotaStatus '\(text)'", hint: "one of " + QuotaStatusStyle.allCases.map(\.rawValue).joined(separator: ", ")) }
        }
        if let f = map["file"], let rel = string(f, "file") {
            switch reader.readReferenced(rel) {
            case .success(let found):
                body = found.data
                bodySource = found.path
                let ext = rel.fileExtension
                contentType = ContentType.forExtension(ext)
                templateOrigin = .file(found.path)
                // A template's JSON is whole only once rendered (`"n": {{hits}}`), so it is not checked here.
                if ContentType.isJSON(extension: ext), !templated {
                    do { _ = try JSONParser.parse(found.data) } catch {
                        problems.add(found.path, line: error.line, column: error.column, "invalid JSON: \(error.message)",
                                     hint: "fix it, or use a non-.json name or fault: malformed_json for a broken body on purpose")
                    }
                }
            case .failure(.missing):
                add(f, "file '\(rel)' does not exist", hint: "paths are relative to the stubs directory or its __files/ folder")
            case .failure(.outsideRoot):
                add(f, "file '\(rel)' is outside the stubs directory", hint: "only files inside the stubs directory are served")
            case .failure(.unreadable):
                add(f, "file '\(rel)' cannot be read", hint: "check its permissions")
            case .failure(.notServed):
                add(f, "file '\(rel)' is a dot-file or the manifest, which stubd never serves",
                    hint: "rename the body without a leading '.', or put it under __files/")
            }
        } else if let b = map["body"], let text = string(b, "body") {
            body = Data(text.utf8)
            contentType = ContentType.text
            templateOrigin = .string(b)
        } else if let j = map["json"] {
            let serialized = json(j).serialized
            body = Data(serialized.utf8)
            contentType = ContentType.json
            templateOrigin = .json(j, text: serialized)
        }
        if fault == .malformedJSON {
            // Cut a real body short, so a client's decoder fails the way it would on a broken network answer.
            let source = body.isEmpty ? Data(#"{"data":[1,2,3],"status":"ok"}"#.utf8) : body
            body = source.prefix(max(1, source.count / 2)) + Data(#"{"truncated":"#.utf8)
            contentType = ContentType.json
            fault = nil
        }
        if let contentType, ownHeaders[.contentType] == nil {
            headers.insert(HTTPField(name: .contentType, value: contentType), at: 0)
        }
        headers.append(contentsOf: ownHeaders)
        if headers[.contentLength] != nil {
            add(node, "Content-Length is set by the server", hint: "remove the Content-Length header; use fault: truncated_body to lie about the length")
            headers[.contentLength] = nil
        }
        let responseDelay = map["delay"].flatMap { delay($0) } ?? routeDelay
        var bytesPerSecond: Int?
        if let t = map["throttle"] {
            if let n = t.int { bytesPerSecond = n }
            else if let m = t.mapping, let v = m["bytes_per_second"], let n = int(v, "bytes_per_second") {
                checkKeys(m, ["bytes_per_second"], in: "throttle")
                bytesPerSecond = n
            } else { add(t, "throttle needs bytes_per_second", hint: "throttle: { bytes_per_second: 1024 }") }
            if let n = bytesPerSecond, n < 1 { add(t, "bytes_per_second must be at least 1"); bytesPerSecond = nil }
        }
        var template: ResponseTemplate?
        if templated, let parameters {
            let declared = headers.last { $0.name == .contentType }?.value
            let json = map["json"] != nil || declared.map { ContentType.isJSON(mediaType: $0) } == true
            template = responseTemplate(body: body, headers: headers, parameters: parameters, json: json,
                                        origin: templateOrigin, headersAt: map["headers"] ?? node)
        }
        return CannedResponse(status: status, headers: headers, body: body, delay: responseDelay, fault: fault,
                              bytesPerSecond: bytesPerSecond, bodySource: bodySource, quotaStatus: quotaStatus, template: template)
    }

    /// The template of a `template: true` answer; each of its problems is placed where it was written.
    private mutating func responseTemplate(body: Data, headers: HTTPFields, parameters: [String], json: Bool,
                                           origin: TemplateOrigin?, headersAt: Node) -> ResponseTemplate? {
        do {
            return try ResponseTemplate.parse(body: body.isEmpty ? nil : String(decoding: body, as: UTF8.self),
                                              headers: headers, parameters: parameters, json: json)
        } catch {
            for e in error.body {
                // The positions a problem names, in the file the template was written in.
                func place(_ line: Int, _ column: Int) -> (file: String, line: Int, column: Int) {
                    switch origin {
                    case .file(let path)?: return (path, line, column)
                    case .string(let node)?:
                        let at = source.place(line: line, column: column, inValueOf: node)
                        return (file, at.line, at.column)
                    case let .json(node, text)?:
                        let at = source.place(line: line, column: column, inJSON: text, of: node)
                        return (file, at.line, at.column)
                    case nil: return (file, headersAt.mark?.line ?? 1, headersAt.mark?.column ?? 1)
                    }
                }
                let at = place(e.line, e.column)
                let opened = e.opened.map { place($0.line, $0.column) }.map { " opened at \($0.line):\($0.column)" } ?? ""
                problems.add(at.file, line: at.line, column: at.column, "template: \(e.message)\(opened)", hint: e.hint)
            }
            for (name, errors) in error.headers {
                // The header's own value when this response wrote it; a default header's, at the headers.
                let valueNode = headersAt.mapping?.first { $0.key.string?.lowercased() == name.lowercased() }?.value
                for e in errors {
                    if let valueNode {
                        let (line, column) = source.place(line: e.line, column: e.column, inValueOf: valueNode)
                        problems.add(file, line: line, column: column, "template in header \(name): \(e.message)", hint: e.hint)
                    } else {
                        add(headersAt, "template in header \(name), column \(e.column): \(e.message)", hint: e.hint)
                    }
                }
            }
            return nil
        }
    }

    // MARK: Quotas and clock

    private mutating func parseQuota(_ node: Node) -> QuotaDefinition? {
        guard let map = mapping(node, "a quota") else { return nil }
        checkKeys(map, ["name", "routes", "key", "limits", "algorithm", "exceeded", "advertise", "timezone", "resource"], in: "a quota")
        let before = problems.items.count
        guard let nameNode = map["name"], let name = string(nameNode, "name") else {
            add(node, "a quota needs a 'name'", hint: "name: weather-api")
            return nil
        }
        var selectors: [RouteSelector] = []
        if let r = map["routes"], case .sequence(let items) = r, !items.isEmpty {
            for item in items {
                guard let text = string(item, "routes") else { continue }
                selectors.append(contentsOf: selector(text, item).map { [$0] } ?? [])
            }
        } else {
            add(map["routes"] ?? node, "quota '\(name)' needs 'routes': a list of route names or patterns",
                hint: "routes: [\"GET /api/{key}/**\"]")
        }
        var key = QuotaKeySource.global
        if let k = map["key"] {
            if let text = k.string, k.mapping == nil {
                switch text {
                case "global": key = .global
                case "ip": key = .ip
                default: add(k, "unknown key '\(text)'", hint: "global, ip, { path: NAME }, { query: NAME } or { header: NAME }")
                }
            } else if let m = mapping(k, "key") {
                checkKeys(m, ["path", "query", "header"], in: "key")
                if let p = m["path"].flatMap({ string($0, "path") }) {
                    key = .path(p)
                    for s in selectors where s.pattern != nil && !(s.pattern!.parameterNames.contains(p)) {
                        add(m["path"]!, "key { path: \(p) }: route pattern '\(s.text)' has no {\(p)} segment",
                            hint: "name a parameter of the pattern, e.g. " + (s.pattern!.parameterNames.first.map { "{ path: \($0) }" } ?? "{ query: appid }"))
                    }
                } else if let q = m["query"].flatMap({ string($0, "query") }) {
                    key = .query(defaultQueryNamesIgnoreCase ? q.lowercased() : q, ignoringCase: defaultQueryNamesIgnoreCase)
                }
                else if let h = m["header"].flatMap({ string($0, "header") }) { key = .header(h.lowercased()) }
            }
        }
        var limits: [QuotaLimit] = []
        if let l = map["limits"], case .sequence(let items) = l, !items.isEmpty {
            for item in items {
                guard let text = string(item, "limits") else { continue }
                if let limit = QuotaLimit(text) { limits.append(limit) }
                else { add(item, "limit '\(text)' is not COUNT/WINDOW", hint: "like \"10/minute\", \"500/day\", \"100/15minutes\"; windows: second, minute, hour, day, month, at most 10 years; counts up to 10^15") }
            }
        } else {
            add(map["limits"] ?? node, "quota '\(name)' needs 'limits'", hint: "limits: [\"10/minute\", \"500/day\"]")
        }
        var algorithm = QuotaAlgorithm.fixed
        if let a = map["algorithm"], let text = string(a, "algorithm") {
            if let parsed = QuotaAlgorithm(rawValue: text) { algorithm = parsed }
            else { add(a, "unknown algorithm '\(text)'", hint: "fixed, sliding or token_bucket") }
        }
        var exceeded = ExceededAnswer.profile(.ietf)
        if let e = map["exceeded"], let m = mapping(e, "exceeded") {
            if let p = m["profile"] {
                checkKeys(m, ["profile"], in: "exceeded")
                if let text = string(p, "profile") {
                    if let profile = QuotaProfile(rawValue: text) { exceeded = .profile(profile) }
                    else { add(p, "unknown profile '\(text)'", hint: "one of " + QuotaProfile.allCases.map(\.rawValue).joined(separator: ", ")) }
                }
            } else if let response = parseResponse(e, routeDelay: nil, parameters: nil) {
                let contentType = response.headers[.contentType] ?? ContentType.json
                exceeded = .custom(status: m["status"] == nil ? 429 : response.status,
                                   headers: HTTPFields(response.headers.filter { $0.name != .contentType }),
                                   body: response.body, contentType: contentType)
            }
        }
        var advertise = AdvertiseStyle.ietf
        if let a = map["advertise"], let text = string(a, "advertise") {
            if let parsed = AdvertiseStyle(rawValue: text) { advertise = parsed }
            else { add(a, "unknown advertise style '\(text)'", hint: "ietf, x-ratelimit, github or none") }
        }
        var timeZone = TimeZone(identifier: "UTC")!
        if let t = map["timezone"], let text = string(t, "timezone") {
            if let tz = TimeZone(identifier: text) { timeZone = tz }
            else { add(t, "unknown time zone '\(text)'", hint: "an IANA name such as UTC or America/New_York") }
        }
        var resource = "core"
        if let r = map["resource"], let text = string(r, "resource") {
            resource = text
            let github = advertise == .github || { if case .profile(.github) = exceeded { return true } else { return false } }()
            if !github {
                add(r, "'resource' names a GitHub rate-limit resource, and quota '\(name)' does not answer as GitHub",
                    hint: "add exceeded: { profile: github } or advertise: github, or remove 'resource'")
            }
        }
        guard problems.items.count == before else { return nil }
        return QuotaDefinition(name: name, selectors: selectors, key: key, limits: limits, algorithm: algorithm,
                               exceeded: exceeded, advertise: advertise, timeZone: timeZone, resource: resource,
                               source: "\(file):\(node.mark?.line ?? 0)")
    }

    private mutating func selector(_ text: String, _ node: Node) -> RouteSelector? {
        switch RouteQuery.parse(text) {
        case .failure(.unknownMethod(let method)):
            add(node, "unknown method '\(method)' in '\(text)'", hint: "like \"GET /api/{key}/**\"")
            return nil
        case .failure(.badPattern(let why)):
            add(node, "bad route pattern '\(text)': \(why)")
            return nil
        case .success(let query):
            switch query.target {
            case .name:
                return RouteSelector(text: text, method: .any, pattern: nil, routeName: text)
            case let .pattern(method, pattern):
                return RouteSelector(text: text, method: method, pattern: pattern, routeName: nil)
            case let .concrete(method, path):
                // A concrete path selects as a pattern of literal segments.
                do {
                    return RouteSelector(text: text, method: method, pattern: try PathPattern(parsing: path), routeName: nil)
                } catch {
                    add(node, "bad route pattern '\(text)': \(error.description)")
                    return nil
                }
            }
        }
    }

    private mutating func parseClock(_ node: Node) -> ClockSetting {
        if let text = node.string, node.mapping == nil {
            if text == "system" { return .system }
            add(node, "unknown clock '\(text)'", hint: "clock: system, or clock: { virtual: \"2016-08-30T00:00:00-04:00\" }")
            return .system
        }
        guard let map = mapping(node, "clock") else { return .system }
        checkKeys(map, ["virtual"], in: "clock")
        guard let v = map["virtual"], let text = string(v, "virtual") else {
            add(node, "clock needs 'virtual' with a start time", hint: "clock: { virtual: \"2016-08-30T00:00:00-04:00\" }")
            return .system
        }
        guard let date = ManifestParser.parseDate(text) else {
            add(v, "'\(text)' is not an ISO 8601 time", hint: "like 2016-08-30T00:00:00-04:00 or 2026-01-01T00:00:00Z")
            return .system
        }
        guard SessionClock.range.contains(date) else {
            add(v, "'\(text)' is outside the clock's range", hint: "a time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z")
            return .system
        }
        return .virtual(start: date)
    }

    /// `drift: { ignore: ["/list/*/dt", /meta/generated] }`, each rule checked where it is written.
    private mutating func parseDrift(_ node: Node) -> [DriftIgnoreRule] {
        guard let map = mapping(node, "drift") else { return [] }
        checkKeys(map, ["ignore"], in: "drift")
        guard let list = map["ignore"] else { return [] }
        guard case .sequence(let items) = list else {
            add(list, "drift.ignore must be a list of JSON pointers", hint: "ignore: [\"/list/*/dt\", /meta/generated]")
            return []
        }
        var rules: [DriftIgnoreRule] = []
        for item in items {
            guard let text = string(item, "drift.ignore") else { continue }
            do { rules.append(try DriftIgnoreRule(parsing: text)) } catch {
                add(item, "drift.ignore: \(error.description)", hint: "like /meta/generated, \"/list/*/dt\" or \"/**/updated_at\"")
            }
        }
        return rules
    }

    static func parseDate(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }

    // MARK: Values

    mutating func delay(_ node: Node) -> Delay? {
        if let map = node.mapping {
            checkKeys(map, ["uniform", "lognormal"], in: "delay")
            if let u = map["uniform"] {
                guard case .sequence(let items) = u, items.count == 2,
                      let low = duration(items[0]), let high = duration(items[1]) else {
                    add(u, "uniform needs two durations", hint: "delay: { uniform: [50ms, 300ms] }")
                    return nil
                }
                if low > high { add(u, "uniform: the first duration must not exceed the second") ; return nil }
                return .uniform(low, high)
            }
            if let l = map["lognormal"], let m = mapping(l, "lognormal") {
                checkKeys(m, ["median", "sigma"], in: "lognormal")
                guard let medianNode = m["median"], let median = duration(medianNode),
                      let sigmaNode = m["sigma"], let sigma = sigmaNode.float ?? sigmaNode.int.map(Double.init), sigma >= 0, sigma <= 10 else {
                    add(l, "lognormal needs a median duration and a sigma from 0 to 10", hint: "{ lognormal: { median: 80ms, sigma: 0.4 } }")
                    return nil
                }
                return .lognormal(median: median, sigma: sigma)
            }
            add(node, "delay needs 'uniform' or 'lognormal', or is a single duration", hint: "delay: 200ms")
            return nil
        }
        return duration(node).map { .fixed($0) }
    }

    /// `200ms`, `1.5s`, `2m`, `1h`; a bare number is milliseconds.
    mutating func duration(_ node: Node) -> Duration? {
        guard let text = node.string?.trimmingCharacters(in: .whitespaces) else {
            add(node, "expected a duration", hint: "like 200ms or 1.5s")
            return nil
        }
        if let d = Duration(manifestText: text) { return d }
        add(node, "'\(text)' is not a duration", hint: "a non-negative number with ms, s, m or h, like 200ms or 1.5s")
        return nil
    }

    private mutating func json(_ node: Node) -> JSONValue {
        // `.inf`, `.nan` and `1e999` have no JSON spelling: serving them would write `inf`.
        YAMLJSON.value(node) { node, text in
            add(node, "'\(text)' is not a finite number, and JSON has no way to write it",
                hint: "use a number within ±1.8e308, or quote it to send a string")
            return .null
        }
    }

    /// A header map; a name that is not an HTTP token is a load error at its key, not a header
    /// libmicrohttpd would drop without a word.
    private mutating func headerFields(_ node: Node, _ what: String) -> HTTPFields {
        guard let map = mapping(node, what) else { return HTTPFields() }
        var fields = HTTPFields()
        for (k, v) in map {
            guard let text = k.string, let value = v.string, v.mapping == nil, v.sequence == nil else {
                add(v, "\(what) values must be single strings", hint: "quote values such as \"*\" or \"01\"")
                continue
            }
            guard let name = HTTPField.Name(text) else {
                add(k, "'\(text)' is not a header name", hint: "letters, digits and !#$%&'*+-.^_`|~ only, no spaces or colons")
                continue
            }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }

    /// `headers: { accept: application/json, x-api-key: "*" }`: names kept lower-cased (HTTP compares
    /// them in any case), `"*"` for present with any value.
    private mutating func headerConditions(_ node: Node) -> [RequestConditions.Condition] {
        guard let map = mapping(node, "headers") else { return [] }
        var conditions: [RequestConditions.Condition] = []
        for (k, v) in map {
            guard let name = k.string, let value = v.string, v.mapping == nil, v.sequence == nil else {
                add(v, "headers values must be single strings", hint: "quote values such as \"*\" or \"01\"")
                continue
            }
            guard HTTPField.Name(name) != nil else {
                // No request could ever send it, so the route could never answer.
                add(k, "'\(name)' is not a header name", hint: "a header name is letters, digits and !#$%&'*+-.^_`|~, with no spaces or colon")
                continue
            }
            conditions.append(.init(name: name.lowercased(), value: value == "*" ? .present : .equals(value)))
        }
        return conditions
    }

    /// `query: { q: London, appid: "*" }`; a list is a choice: `q: [London, "London,GB"]`.
    private mutating func queryConditions(_ node: Node) -> [RequestConditions.Condition] {
        guard let map = mapping(node, "query") else { return [] }
        var conditions: [RequestConditions.Condition] = []
        for (k, v) in map {
            guard let name = k.string else { add(k, "query names must be strings"); continue }
            if case .sequence(let items) = v {
                let values = items.compactMap { item -> String? in
                    guard case .scalar(let s) = item else { return nil }
                    return s.string
                }
                guard values.count == items.count, !values.isEmpty else {
                    add(v, "query \(name): a list must hold one or more single values", hint: "q: [London, \"London,GB\"]")
                    continue
                }
                conditions.append(.init(name: name, value: values.count == 1 ? .equals(values[0]) : .oneOf(values)))
            } else if case .scalar(let s) = v {
                conditions.append(.init(name: name, value: s.string == "*" ? .present : .equals(s.string)))
            } else {
                add(v, "query values must be a single string or a list of strings",
                    hint: "q: London, q: [London, \"London,GB\"], or \"*\" for any value")
            }
        }
        return conditions
    }

    /// `exact` (the default) or `any-case`; nil, with a problem noted, for anything else.
    private mutating func queryNames(_ node: Node) -> Bool? {
        guard let text = string(node, "queryNames") else { return nil }
        switch text.lowercased() {
        case "exact": return false
        case "any-case": return true
        default:
            add(node, "unknown queryNames '\(text)'", hint: "exact (the default: appid ≠ APPID) or any-case")
            return nil
        }
    }

    private mutating func mapping(_ node: Node, _ what: String) -> Node.Mapping? {
        if let m = node.mapping { return m }
        add(node, "\(what) must be a mapping of keys to values")
        return nil
    }

    private mutating func string(_ node: Node, _ what: String) -> String? {
        if case .scalar(let s) = node { return s.string }
        add(node, "'\(what)' must be a single value, not a list or mapping")
        return nil
    }

    private mutating func int(_ node: Node, _ what: String) -> Int? {
        if let n = node.int { return n }
        add(node, "'\(what)' must be a whole number")
        return nil
    }

    private mutating func bool(_ node: Node, _ what: String) -> Bool? {
        if let b = node.bool { return b }
        add(node, "'\(what)' must be true or false")
        return nil
    }

    private mutating func checkKeys(_ map: Node.Mapping, _ allowed: [String], in context: String) {
        for (key, _) in map {
            guard let name = key.string, !allowed.contains(name) else { continue }
            let suggestion = allowed.min { editDistance(name, $0) < editDistance(name, $1) }
            let hint = suggestion.flatMap { editDistance(name, $0) <= 2 ? "did you mean '\($0)'?" : nil }
                ?? "allowed here: " + allowed.joined(separator: ", ")
            add(key, "unknown key '\(name)' in \(context)", hint: hint)
        }
    }

    private mutating func add(_ node: Node?, _ message: String, hint: String? = nil) {
        problems.add(file, line: node?.mark?.line, column: node?.mark?.column, message, hint: hint)
    }
}

/// Levenshtein distance, for "did you mean" hints.
func editDistance(_ a: String, _ b: String) -> Int {
    let (a, b) = (Array(a.lowercased()), Array(b.lowercased()))
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

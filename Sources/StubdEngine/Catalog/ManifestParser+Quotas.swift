import Foundation
import Yams
import HTTPTypes

extension ManifestParser {
    mutating func parseQuota(_ node: Node) -> QuotaDefinition? {
        guard let map = mapping(node, "a quota") else { return nil }
        checkKeys(map, ["name", "routes", "key", "limits", "algorithm", "exceeded", "advertise", "timezone", "resource", "maxKeys", "notModified"], in: "a quota")
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
        } else if let r = map["routes"], let text = r.string {
            // One name or pattern written without brackets reads naturally and is a common slip.
            add(r, "quota '\(name)': 'routes' must be a list, got the single value '\(text)'",
                hint: "put it in brackets: routes: [\"\(text)\"]")
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
        } else if let l = map["limits"], let text = l.string {
            add(l, "quota '\(name)': 'limits' must be a list, got the single value '\(text)'",
                hint: "put it in brackets: limits: [\"\(text)\"]; several limits all apply, e.g. [\"10/minute\", \"500/day\"]")
        } else {
            add(map["limits"] ?? node, "quota '\(name)' needs 'limits': a list of COUNT/WINDOW", hint: "limits: [\"10/minute\", \"500/day\"]")
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
        var maxKeys = QuotaDefinition.defaultMaxKeys
        if let m = map["maxKeys"], let n = int(m, "maxKeys") {
            if n >= 1, n <= QuotaDefinition.maxKeysCeiling { maxKeys = n }
            else { add(m, "maxKeys must be from 1 to \(QuotaDefinition.maxKeysCeiling), got \(n)", hint: "keys counted at once; the default is \(QuotaDefinition.defaultMaxKeys)") }
        }
        var countsNotModified: Bool?
        if let n = map["notModified"], let text = string(n, "notModified") {
            switch text {
            case "counted": countsNotModified = true
            case "free": countsNotModified = false
            default: add(n, "notModified is 'counted' or 'free', got '\(text)'",
                         hint: "free: a request answered 304 Not Modified is not counted (GitHub's rule, the default with its profile); counted: it is")
            }
        }
        guard problems.items.count == before else { return nil }
        return QuotaDefinition(name: name, selectors: selectors, key: key, limits: limits, algorithm: algorithm,
                               exceeded: exceeded, advertise: advertise, timeZone: timeZone, resource: resource,
                               maxKeys: maxKeys, countsNotModified: countsNotModified, source: "\(file):\(node.mark?.line ?? 0)")
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
                return RouteSelector(text: text, method: .any, pattern: nil, routeName: text, line: node.mark?.line, column: node.mark?.column)
            case let .pattern(method, pattern):
                return RouteSelector(text: text, method: method, pattern: pattern, routeName: nil, line: node.mark?.line, column: node.mark?.column)
            case let .concrete(method, path):
                // A concrete path selects as a pattern of literal segments.
                do {
                    return RouteSelector(text: text, method: method, pattern: try PathPattern(parsing: path), routeName: nil,
                                         line: node.mark?.line, column: node.mark?.column)
                } catch {
                    add(node, "bad route pattern '\(text)': \(error.description)")
                    return nil
                }
            }
        }
    }
}

import Foundation
import StubdProtocol
import Yams
import HTTPTypes

extension ManifestParser {
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

    mutating func json(_ node: Node) -> JSONValue {
        // `.inf`, `.nan` and `1e999` have no JSON spelling: serving them would write `inf`.
        YAMLJSON.value(node) { node, text in
            add(node, "'\(text)' is not a finite number, and JSON has no way to write it",
                hint: "use a number within ±1.8e308, or quote it to send a string")
            return .null
        }
    }

    /// A header map; a name that is not an HTTP token is a load error at its key, not a header
    /// libmicrohttpd would drop without a word.
    mutating func headerFields(_ node: Node, _ what: String) -> HTTPFields {
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
    mutating func headerConditions(_ node: Node) -> [RequestConditions.Condition] {
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
    mutating func queryConditions(_ node: Node) -> [RequestConditions.Condition] {
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
    mutating func queryNames(_ node: Node) -> Bool? {
        guard let text = string(node, "queryNames") else { return nil }
        switch text.lowercased() {
        case "exact": return false
        case "any-case": return true
        default:
            add(node, "unknown queryNames '\(text)'", hint: "exact (the default: appid ≠ APPID) or any-case")
            return nil
        }
    }

    mutating func mapping(_ node: Node, _ what: String) -> Node.Mapping? {
        if let m = node.mapping { return m }
        add(node, "\(what) must be a mapping of keys to values")
        return nil
    }

    mutating func string(_ node: Node, _ what: String) -> String? {
        if case .scalar(let s) = node { return s.string }
        add(node, "'\(what)' must be a single value, not a list or mapping")
        return nil
    }

    mutating func int(_ node: Node, _ what: String) -> Int? {
        if let n = node.int { return n }
        add(node, "'\(what)' must be a whole number")
        return nil
    }

    mutating func bool(_ node: Node, _ what: String) -> Bool? {
        if let b = node.bool { return b }
        add(node, "'\(what)' must be true or false")
        return nil
    }

    mutating func checkKeys(_ map: Node.Mapping, _ allowed: [String], in context: String) {
        for (key, _) in map {
            guard let name = key.string, !allowed.contains(name) else { continue }
            let suggestion = allowed.min { editDistance(name, $0) < editDistance(name, $1) }
            let hint = suggestion.flatMap { editDistance(name, $0) <= 2 ? "did you mean '\($0)'?" : nil }
                ?? "allowed here: " + allowed.joined(separator: ", ")
            add(key, "unknown key '\(name)' in \(context)", hint: hint)
        }
    }

    mutating func add(_ node: Node?, _ message: String, hint: String? = nil) {
        problems.add(file, line: node?.mark?.line, column: node?.mark?.column, message, hint: hint)
    }
}

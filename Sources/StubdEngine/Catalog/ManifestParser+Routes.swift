import Foundation
import HTTPTypes
import Yams

extension ManifestParser {
    mutating func parseRoute(_ node: Node, source: RouteSource, priority defaultPriority: Int) -> Route? {
        guard let map = mapping(node, "a route") else { return nil }
        checkKeys(map, ["name", "request", "response", "responses", "priority", "times", "cycle", "delay",
                       "scenario", "whenState", "thenState", "scenarioKey"], in: "a route")
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
        let scenario = map["scenario"] != nil || map["whenState"] != nil || map["thenState"] != nil || map["scenarioKey"] != nil
            ? parseScenarioStep(map, parameters: request.pattern.parameterNames) : nil
        guard problems.items.count == problemsBefore, !responses.isEmpty else { return nil }
        return Route(name: name, method: request.method, pattern: request.pattern, conditions: request.conditions,
                     responses: responses, cycle: cycle, times: times, priority: priority, source: source, scenario: scenario)
    }

    private mutating func parseRequest(_ node: Node) -> (method: MethodMatch, pattern: PathPattern, conditions: RequestConditions)? {
        guard let map = mapping(node, "request") else { return nil }
        checkKeys(map, ["method", "path", "query", "queryNames", "headers", "body", "graphql"], in: "request")
        // A GraphQL operation comes by GET or by POST (its reading turns any other method down).
        var method = map["graphql"] == nil ? MethodMatch.only(.get) : .any
        if let m = map["method"], let text = string(m, "method") {
            let upper = text.uppercased()
            if upper == "ANY" { method = .any }
            else if ConventionScanner.methods.contains(upper) { method = .only(upper == "HEAD" ? .get : HTTPRequest.Method(upper)!) }
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
        if let g = map["graphql"] {
            if map["body"] != nil { add(g, "a route matches either 'body' or 'graphql', not both", hint: "graphql: compares the GraphQL body itself") }
            conditions.graphQL = graphQLMatch(g)
        }
        return (method, pattern, conditions)
    }
}

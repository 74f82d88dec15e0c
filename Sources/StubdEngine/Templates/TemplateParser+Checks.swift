import Foundation

extension TemplateParser {
    /// A value, or a (subexpression) and everything inside it.
    func checkTree(_ expression: TemplateExpression, at position: TemplatePosition, eachDepth: Int) throws(TemplateError) {
        guard case let .call(name, arguments, hash) = expression else {
            return try checkValue(expression, at: position, eachDepth: eachDepth)
        }
        for inner in arguments + Array(hash.values) { try checkTree(inner, at: position, eachDepth: eachDepth) }
        try checkLiterals(name, hash, position)
    }

    /// Options written as literals are checked now: a misspelt zone or offset would otherwise
    /// render the wrong date on every request.
    private func checkLiterals(_ name: String, _ hash: [String: TemplateExpression], _ position: TemplatePosition) throws(TemplateError) {
        guard name == "now" else { return }
        if case .string(let zone)? = hash["timezone"], TimeZone(identifier: zone) == nil {
            let near = TemplateParser.nearest(zone, in: TimeZone.knownTimeZoneIdentifiers)
            throw TemplateError(line: position.line, column: position.column, message: "unknown timezone '\(zone)'",
                                hint: near.map { "did you mean '\($0)'?" } ?? "an IANA name such as 'America/New_York' or 'UTC'")
        }
        if case .string(let offset)? = hash["offset"], TemplateClock.parseOffset(offset) == nil {
            throw TemplateError(line: position.line, column: position.column, message: "offset '\(offset)' is not an amount and a unit",
                                hint: "offset='1 days', '-3 hours', '2 weeks' (seconds, minutes, hours, days, weeks, months, years)")
        }
    }

    func checkArity(_ name: String, _ helper: (arguments: ClosedRange<Int>, hash: Set<String>, block: Bool, inline: Bool),
                            _ arguments: [TemplateExpression], _ hash: [String: TemplateExpression], _ position: TemplatePosition) throws(TemplateError) {
        if !helper.arguments.contains(arguments.count) {
            let want = helper.arguments.lowerBound == helper.arguments.upperBound ? "\(helper.arguments.lowerBound)" : "\(helper.arguments)"
            throw TemplateError(line: position.line, column: position.column,
                                message: "'\(name)' takes \(want) argument\(want == "1" ? "" : "s"), got \(arguments.count)",
                                hint: TemplateParser.usage[name])
        }
        for key in hash.keys where !helper.hash.contains(key) {
            let allowed = helper.hash.sorted()
            throw TemplateError(line: position.line, column: position.column, message: "'\(name)' has no option '\(key)'",
                                hint: allowed.isEmpty ? TemplateParser.usage[name] : (TemplateParser.nearest(key, in: allowed).map { "did you mean '\($0)'?" } ?? "options: " + allowed.joined(separator: ", ")))
        }
        try checkLiterals(name, hash, position)
    }

    static let usage: [String: String] = [
        "now": "{{now offset='1 days' format='yyyy-MM-dd' timezone='America/New_York'}}",
        "randomInt": "{{randomInt lower=1 upper=6}}",
        "uuid": "{{uuid}}",
        "hits": "{{hits}}",
        "eventNumber": "{{eventNumber}}",
        "scenario": "{{scenario 'checkout'}} (the session's state of a scenario; of one key of a keyed one: {{scenario 'order' key=request.path.id}})",
        "resourceCount": "{{resourceCount 'todos'}} (how many items the session holds)",
        "resourceItems": "{{#each (resourceItems 'todos')}}{{this.title}}{{/each}}",
        "jsonPath": "{{jsonPath request.body '$.name'}}",
        "json": "{{json value}}",
        "eq": "{{#eq request.query.units 'metric'}}…{{else}}…{{/eq}}",
        "if": "{{#if request.query.q}}…{{/if}}",
        "unless": "{{#unless request.query.q}}…{{/unless}}",
        "each": "{{#each (jsonPath request.body '$.items')}}{{this}}{{/each}}",
    ]

    /// A lone value: a literal, or a path a request (or the `#each` item) can supply.
    func checkValue(_ expression: TemplateExpression, at position: TemplatePosition, eachDepth: Int) throws(TemplateError) {
        guard case .path(let parts, let text) = expression else { return }
        let head = parts[0]
        if head == "this" || head.hasPrefix("@") || head == ".." {
            if eachDepth == 0, head != "this" {
                throw TemplateError(line: position.line, column: position.column, message: "'\(text)' is only set inside {{#each}}", hint: nil)
            }
            return
        }
        if head == "request" {
            guard parts.count >= 2 else { return }
            let field = parts[1]
            guard TemplateParser.requestFields.contains(field) else {
                throw TemplateError(line: position.line, column: position.column, message: "a request has no '\(field)'",
                                    hint: TemplateParser.nearest(field, in: TemplateParser.requestFields).map { "did you mean 'request.\($0)'?" }
                                        ?? "request." + TemplateParser.requestFields.joined(separator: ", request."))
            }
            if field == "path", parts.count >= 3 {
                let name = parts[2]
                if Int(name) != nil { return }
                guard parameters.contains(name) else {
                    let listed = parameters.isEmpty ? "the route has no {parameters}" : "its parameters: " + parameters.joined(separator: ", ")
                    throw TemplateError(line: position.line, column: position.column,
                                        message: "request.path.\(name): the route's path has no {\(name)}",
                                        hint: (TemplateParser.nearest(name, in: parameters).map { "did you mean request.path.\($0)? " } ?? "")
                                            + listed + "; request.path.[N] is the Nth segment")
                }
            }
            return
        }
        if let helper = TemplateParser.helpers[head], parts.count == 1 {
            // A bare helper name is a call with nothing passed: only a helper that takes nothing can be one
            // (`format=eq` rendered eq without its two arguments and trapped, found by scripts/fuzz).
            if helper.inline, helper.arguments.lowerBound == 0 { return }
            let count = helper.arguments.lowerBound
            throw TemplateError(line: position.line, column: position.column,
                                message: "\(head) needs \(count) argument\(count == 1 ? "" : "s") and is given none here",
                                hint: helper.inline ? "call it in parentheses with its arguments: (\(head) \((1...count).map { "value\($0)" }.joined(separator: " ")))"
                                    : "\(head) opens a block: {{#\(head) …}}…{{/\(head)}}")
        }
        // Inside {{#each}}, a bare name is a field of the item, as in Handlebars.
        if eachDepth > 0 { return }
        let roots = ["request"] + TemplateParser.helpers.filter { $0.value.inline && $0.value.arguments.lowerBound == 0 }.keys.sorted()
        throw TemplateError(line: position.line, column: position.column, message: "unknown value or helper '\(text)'",
                            hint: TemplateParser.nearest(head, in: roots + TemplateParser.helpers.keys.sorted()).map { "did you mean '\($0)'?" }
                                ?? "values start with request. (request.path.NAME, request.query.NAME, request.headers.NAME, request.body)")
    }

    static func nearest(_ name: String, in candidates: [String]) -> String? {
        let best = candidates.min { editDistance(name, $0) < editDistance(name, $1) }
        return best.flatMap { editDistance(name, $0) <= max(2, name.count / 3) ? $0 : nil }
    }
}

import Foundation
import HTTPTypes

/// Renders a parsed `Template` for one request. A value the request lacks renders empty and is
/// noted (the journal shows the notes), so a test can see why a field came out blank.
package struct TemplateRenderer {
    static let maxNotes = 8

    let input: TemplateInput
    private(set) var notes: [String] = []
    /// `#each` frames, innermost last.
    private var frames: [(item: JSONValue, index: Int, key: String?)] = []
    private lazy var bodyJSON: JSONValue? = try? JSONParser.parse(input.request.body)
    /// What this request's templates may cost: bytes written, plus one for every piece of template
    /// and every loop pass rendered, so a loop that writes nothing ends too. Three nested `{{#each}}` over a 1.4 KB body
    /// wrote 71 MB; past the limit rendering stops and `overLimit` says so.
    let limit: Int
    private(set) var overLimit = false
    /// Bytes of the templates finished so far, and pieces rendered.
    private var spent = 0

    init(_ input: TemplateInput, limit: Int = .max) {
        self.input = input
        self.limit = limit
    }

    mutating func render(_ template: Template) -> String {
        var out = ""
        render(template.nodes, into: &out)
        spent += out.utf8.count
        if spent > limit { overLimit = true }
        return out
    }

    private mutating func render(_ nodes: [TemplateNode], into out: inout String) {
        // The call counts too: an empty loop body is rendered once per item.
        spent += 1
        for node in nodes {
            spent += 1
            // `utf8.count` of a native string is stored, not counted.
            guard !overLimit, spent + out.utf8.count <= limit else { overLimit = true; return }
            switch node {
            case .text(let text): out += text
            case let .value(expression, position, inJSONString):
                let text = TemplateRenderer.text(of: evaluate(expression, at: position))
                if inJSONString { JSONValue.writeEscaped(text, to: &out) } else { out += text }
            case let .block(name, arguments, _, body, inverse, position):
                block(name, arguments, body, inverse, position, into: &out)
            }
        }
    }

    private mutating func block(_ name: String, _ arguments: [TemplateExpression], _ body: [TemplateNode],
                                _ inverse: [TemplateNode], _ position: TemplatePosition, into out: inout String) {
        switch name {
        case "if", "unless":
            let truthy = TemplateRenderer.isTruthy(evaluate(arguments[0], at: position, noteMissing: false))
            render(truthy == (name == "if") ? body : inverse, into: &out)
        case "eq":
            let equal = TemplateRenderer.text(of: evaluate(arguments[0], at: position)) == TemplateRenderer.text(of: evaluate(arguments[1], at: position))
            render(equal ? body : inverse, into: &out)
        case "each":
            switch evaluate(arguments[0], at: position) {
            case .array(let list)? where !list.isEmpty:
                for (i, item) in list.enumerated() {
                    if overLimit { break }
                    frames.append((item, i, nil))
                    render(body, into: &out)
                    frames.removeLast()
                }
            case .object(let members)? where !members.isEmpty:
                // Sorting is work the budget pays for too.
                spent += members.count
                for (i, key) in members.keys.sorted().enumerated() {
                    if overLimit { break }
                    frames.append((members[key]!, i, key))
                    render(body, into: &out)
                    frames.removeLast()
                }
            default:
                render(inverse, into: &out)
            }
        default:
            break
        }
    }

    // MARK: Values

    /// Nil when the request does not have it (noted unless asked not to: `#if` tests for presence).
    private mutating func evaluate(_ expression: TemplateExpression, at position: TemplatePosition, noteMissing: Bool = true) -> JSONValue? {
        switch expression {
        case .string(let s): return .string(s)
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case let .call(helper, arguments, hash): return call(helper, arguments, hash, at: position)
        case let .path(parts, text):
            let value = lookup(parts)
            if value == nil, noteMissing { note("\(text) is not in this request (\(position.line):\(position.column)); rendered empty") }
            return value
        }
    }

    private mutating func lookup(_ parts: [String]) -> JSONValue? {
        let head = parts[0]
        if head == "request" { return requestValue(Array(parts.dropFirst())) }
        if head == "@index" { return frames.last.map { .number(Double($0.index)) } }
        if head == "@key" { return frames.last?.key.map { .string($0) } }
        if head == "@first" { return frames.last.map { .bool($0.index == 0) } }
        // The parser lets a bare helper name through only when the helper takes nothing; checked again
        // here because a call past its arguments traps.
        if let helper = TemplateParser.helpers[head], parts.count == 1, helper.arguments.lowerBound == 0 {
            return call(head, [], [:], at: TemplatePosition(line: 0, column: 0))
        }
        guard let frame = frames.last else { return nil }
        let rest = head == "this" ? Array(parts.dropFirst()) : parts
        return TemplateRenderer.descend(frame.item, rest)
    }

    private mutating func requestValue(_ parts: [String]) -> JSONValue? {
        let request = input.request
        guard let field = parts.first else { return nil }
        let name = parts.count > 1 ? parts[1] : nil
        switch field {
        case "method": return .string(request.method.rawValue)
        case "url":
            let query = request.query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
            return .string(query.isEmpty ? request.path : request.path + "?" + query)
        case "path":
            guard let name else { return .string(request.path) }
            if let n = Int(name) {
                let segments = PathPattern.split(request.normalizedPath)
                return n >= 0 && n < segments.count ? .string(String(segments[n])) : nil
            }
            return input.parameters[name].map { .string($0) }
        case "query":
            guard let name else { return nil }
            let found = request.query.first { $0.name == name } ?? request.query.first { $0.name.lowercased() == name.lowercased() }
            return found.map { .string($0.value ?? "") }
        case "headers":
            guard let name else { return nil }
            // Lower-cased when the template was parsed (ExpressionLexer).
            return request.header(name).map { .string($0) }
        case "body":
            return .string(String(decoding: request.body, as: UTF8.self))
        default: return nil
        }
    }

    static func descend(_ value: JSONValue, _ parts: [String]) -> JSONValue? {
        var current = value
        for part in parts {
            switch current {
            case .object(let members): guard let next = members[part] else { return nil }; current = next
            case .array(let items): guard let i = Int(part), i >= 0, i < items.count else { return nil }; current = items[i]
            default: return nil
            }
        }
        return current
    }

    // MARK: Helpers

    private mutating func call(_ helper: String, _ arguments: [TemplateExpression], _ hash: [String: TemplateExpression],
                               at position: TemplatePosition) -> JSONValue? {
        switch helper {
        case "now":
            let offset = hash["offset"].flatMap { evaluate($0, at: position) }.map(TemplateRenderer.text(of:))
            let format = hash["format"].flatMap { evaluate($0, at: position) }.map(TemplateRenderer.text(of:))
            let zone = hash["timezone"].flatMap { evaluate($0, at: position) }.map(TemplateRenderer.text(of:))
            return .string(TemplateClock.render(input.now, offset: offset, format: format, timezone: zone))
        case "randomInt":
            let lower = hash["lower"].flatMap { evaluate($0, at: position) }.flatMap(TemplateRenderer.number(of:)) ?? 0
            let upper = hash["upper"].flatMap { evaluate($0, at: position) }.flatMap(TemplateRenderer.number(of:)) ?? Double(Int32.max)
            let (a, b) = (Int64(min(lower, upper)), Int64(max(lower, upper)))
            let span = UInt64(b - a) &+ 1
            return .number(Double(a + Int64(span == 0 ? input.random() : input.random() % span)))
        case "uuid":
            var bytes = withUnsafeBytes(of: (input.random(), input.random())) { Array($0) }
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            let chars = Array(hex)
            return .string([0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-"))
        case "hits":
            return .number(Double(input.hits))
        case "eventNumber":
            return .number(Double(input.eventNumber))
        case "scenario", "resourceCount", "resourceItems":
            let name = TemplateRenderer.text(of: evaluate(arguments[0], at: position))
            let found: JSONValue?
            switch helper {
            case "scenario":
                let key = hash["key"].flatMap { evaluate($0, at: position) }.map(TemplateRenderer.text(of:))
                found = input.state?.scenarioState(name, key: key).map { .string($0) }
            case "resourceCount": found = input.state?.resourceCount(name).map { .number(Double($0)) }
            default: found = input.state?.resourceItems(name).map { .array($0) }
            }
            if found == nil {
                note("\(helper): no \(helper == "scenario" ? "scenario" : "resource") '\(name)' (\(position.line):\(position.column)); rendered empty")
            }
            return found
        case "json":
            guard let value = evaluate(arguments[0], at: position) else { return .string("null") }
            return .string(value.serialized)
        case "jsonPath":
            let source: JSONValue?
            if case .path(let parts, _) = arguments[0], parts == ["request", "body"] { source = bodyJSON } else {
                switch evaluate(arguments[0], at: position) {
                case .string(let text)?: source = try? JSONParser.parse(Data(text.utf8))
                case let other: source = other
                }
            }
            let expression = evaluate(arguments[1], at: position).map(TemplateRenderer.text(of:)) ?? "$"
            guard let source else { note("jsonPath: the body is not JSON (\(position.line):\(position.column)); rendered empty"); return nil }
            let found = JSONPath.select(expression, in: source)
            if found == nil { note("jsonPath '\(expression)' found nothing (\(position.line):\(position.column)); rendered empty") }
            return found
        case "eq":
            let a = TemplateRenderer.text(of: evaluate(arguments[0], at: position))
            let b = TemplateRenderer.text(of: evaluate(arguments[1], at: position))
            return .bool(a == b)
        default:
            return nil
        }
    }

    private mutating func note(_ text: String) {
        if notes.count < TemplateRenderer.maxNotes { notes.append(text) }
    }

    // MARK: Conversions

    static func text(of value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return ""
        case .string(let s)?: return s
        case .bool(let b)?: return b ? "true" : "false"
        case let other?: return other.serialized
        }
    }

    static func number(of value: JSONValue) -> Double? {
        switch value {
        case .number(let n): return n
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    static func isTruthy(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let b)?: return b
        case .string(let s)?: return !s.isEmpty
        case .number(let n)?: return n != 0
        case .array(let a)?: return !a.isEmpty
        case .object?: return true
        }
    }
}

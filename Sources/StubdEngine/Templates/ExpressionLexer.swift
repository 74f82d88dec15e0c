import Foundation

/// The terms of one tag: paths, literals, `key=value` and `(subexpressions)`.
package struct ExpressionLexer {
    struct Term {
        var expression: TemplateExpression
        var hashKey: String?
        var position: TemplatePosition
        var isSubexpression = false
        var isHash: Bool { hashKey != nil }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var position: TemplatePosition

    init(_ bytes: [UInt8], at position: TemplatePosition) {
        self.bytes = bytes
        self.position = position
    }

    /// `depth`: how many `(` are open around these terms (at most `TemplateParser.maxNesting`).
    mutating func terms(closing: Bool = false, depth: Int = 0) throws(TemplateError) -> [Term] {
        var out: [Term] = []
        while true {
            skipSpaces()
            guard index < bytes.count else {
                if closing { throw error("a '(' is never closed", hint: "add ')'") }
                return out
            }
            if bytes[index] == UInt8(ascii: ")") {
                guard closing else { throw error("a ')' without its '('", hint: nil) }
                step()
                return out
            }
            let at = position
            var key: String?
            // key=value
            if let eq = lookaheadHashKey() {
                key = eq
                for _ in 0..<(eq.utf8.count + 1) { step() }
                // `{{now offset=}}`: the tag ends at the `=`, and value(depth:) reads a byte that is not there.
                guard index < bytes.count else {
                    throw TemplateError(line: at.line, column: at.column, message: "'\(eq)=' has no value",
                                        hint: "write one after the '=', as in \(eq)='…', or leave '\(eq)=' out")
                }
            }
            var term = try value(depth: depth)
            term.position = at
            term.hashKey = key
            out.append(term)
        }
    }

    private mutating func value(depth: Int) throws(TemplateError) -> Term {
        let at = position
        let b = bytes[index]
        if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") {
            step()
            var text: [UInt8] = []
            while index < bytes.count, bytes[index] != b { text.append(bytes[index]); step() }
            guard index < bytes.count else { throw error("a string is never closed", hint: "end it with \(Character(UnicodeScalar(b)))") }
            step()
            return Term(expression: .string(String(decoding: text, as: UTF8.self)), position: at)
        }
        if b == UInt8(ascii: "(") {
            guard depth < TemplateParser.maxNesting else {
                throw error("(subexpressions) nest more than \(TemplateParser.maxNesting) deep here",
                            hint: "stubd allows at most \(TemplateParser.maxNesting) open '(' in a tag; compute the value in fewer steps")
            }
            step()
            let inner = try terms(closing: true, depth: depth + 1)
            guard let first = inner.first, case .path(let parts, let name) = first.expression, parts.count == 1,
                  let helper = TemplateParser.helpers[name], helper.inline else {
                let names = TemplateParser.helpers.filter { $0.value.inline }.keys.sorted()
                var hint = "inline helpers: " + names.joined(separator: ", ")
                if let first = inner.first, case .path(_, let name) = first.expression, let near = TemplateParser.nearest(name, in: names) {
                    hint = "did you mean '\(near)'?"
                }
                throw TemplateError(line: at.line, column: at.column, message: "a (subexpression) calls a helper", hint: hint)
            }
            var arguments: [TemplateExpression] = []
            var hash: [String: TemplateExpression] = [:]
            for term in inner.dropFirst() { if let k = term.hashKey { hash[k] = term.expression } else { arguments.append(term.expression) } }
            guard helper.arguments.contains(arguments.count) else {
                throw TemplateError(line: at.line, column: at.column, message: "'\(name)' takes \(helper.arguments.lowerBound) argument(s), got \(arguments.count)",
                                    hint: TemplateParser.usage[name])
            }
            return Term(expression: .call(helper: name, arguments: arguments, hash: hash), position: at, isSubexpression: true)
        }
        // A path or a bare literal.
        var parts: [String] = []
        var text: [UInt8] = []
        var current: [UInt8] = []
        while index < bytes.count {
            let c = bytes[index]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ")") || c == UInt8(ascii: "(") { break }
            if c == UInt8(ascii: "[") {
                text.append(c); step()
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") { current.append(bytes[index]); text.append(bytes[index]); step() }
                guard index < bytes.count else { throw error("a '[' is never closed", hint: "request.path.[1]") }
                text.append(bytes[index]); step()
                continue
            }
            if c == UInt8(ascii: ".") || c == UInt8(ascii: "/") {
                // `../` and `./` stay part of the name.
                if current.isEmpty, c == UInt8(ascii: "."), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ".") {
                    current = [c, c]; text += [c, c]; step(); step(); continue
                }
                if !current.isEmpty { parts.append(String(decoding: current, as: UTF8.self)); current = [] }
                text.append(c); step()
                continue
            }
            current.append(c); text.append(c); step()
        }
        if !current.isEmpty { parts.append(String(decoding: current, as: UTF8.self)) }
        // Header names compare in any case: lower-cased once here, not on every request.
        if parts.count == 3, parts[0] == "request", parts[1] == "headers" { parts[2] = parts[2].lowercased() }
        let whole = String(decoding: text, as: UTF8.self)
        guard !parts.isEmpty else { throw TemplateError(line: at.line, column: at.column, message: "expected a value", hint: nil) }
        if parts.count == 1 {
            switch whole {
            case "true": return Term(expression: .bool(true), position: at)
            case "false": return Term(expression: .bool(false), position: at)
            case "null", "undefined": return Term(expression: .null, position: at)
            default:
                if let n = Double(whole), whole.first.map({ $0 == "-" || $0.isNumber }) == true { return Term(expression: .number(n), position: at) }
            }
        }
        return Term(expression: .path(parts, text: whole), position: at)
    }

    /// `name=` at the current position: the name.
    private func lookaheadHashKey() -> String? {
        var i = index
        var name: [UInt8] = []
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "=") { return name.isEmpty ? nil : String(decoding: name, as: UTF8.self) }
            let isNameByte = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
            guard isNameByte else { return nil }
            name.append(c)
            i += 1
        }
        return nil
    }

    private mutating func skipSpaces() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { step() }
    }

    private mutating func step() {
        if bytes[index] == 0x0A { position.line += 1; position.column = 1 } else if bytes[index] & 0xC0 != 0x80 { position.column += 1 }
        index += 1
    }

    private func error(_ message: String, hint: String?) -> TemplateError {
        TemplateError(line: position.line, column: position.column, message: message, hint: hint)
    }
}

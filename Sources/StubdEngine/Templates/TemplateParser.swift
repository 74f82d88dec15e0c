import Foundation

/// Reads Handlebars text into a `Template`, checking every name against what a request can
/// supply: an unknown helper, an unclosed block or a path parameter the route does not have is a
/// load error with its line and column, not an empty string at request time. Every problem in the
/// text is reported, not just the first: a tag is read whole before it is judged, so the parser
/// notes what is wrong with it and carries on after it.
package struct TemplateParser {
    /// Helpers a tag may call, with what each takes. Block-only ones are marked.
    static let helpers: [String: (arguments: ClosedRange<Int>, hash: Set<String>, block: Bool, inline: Bool)] = [
        "now": (0...0, ["offset", "format", "timezone"], false, true),
        "randomInt": (0...0, ["lower", "upper"], false, true),
        "uuid": (0...0, [], false, true),
        "hits": (0...0, [], false, true),
        "eventNumber": (0...0, [], false, true),
        "scenario": (1...1, ["key"], false, true),
        "resourceCount": (1...1, [], false, true),
        "resourceItems": (1...1, [], false, true),
        "jsonPath": (2...2, [], false, true),
        "json": (1...1, [], false, true),
        "eq": (2...2, [], true, true),
        "if": (1...1, [], true, false),
        "unless": (1...1, [], true, false),
        "each": (1...1, [], true, false),
    ]
    /// What `request.` can be followed by.
    static let requestFields = ["method", "path", "url", "query", "headers", "body"]
    /// How many blocks may be open at once, and how many `(` inside one tag. Parsing and rendering
    /// recurse once per level: without a bound a deep enough template (35,000 `{{#if}}`s, 300 KB)
    /// overflows the stack and takes the server down; real templates stay within a handful.
    static let maxNesting = 100
    /// A text with more problems than this is reported up to here: the rest would be the same mistake again.
    static let maxProblems = 100

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    /// The route's `{name}` parameters, for checking `request.path.NAME`.
    let parameters: [String]
    /// In a JSON answer, where its text stands (in a string or not); nil in any other answer.
    private var json: JSONTextTracker?
    /// What is wrong so far, in the order it was found.
    private var problems: [TemplateError] = []

    init(_ text: String, parameters: [String], json: Bool = false) {
        bytes = Array(text.utf8)
        self.parameters = parameters
        self.json = json ? JSONTextTracker() : nil
    }

    /// The template, or every problem in `text`. `json`: the text is a JSON answer's, so a
    /// `{{value}}` inside one of its strings is escaped for it.
    static func parse(_ text: String, parameters: [String], json: Bool = false) throws(TemplateErrors) -> Template {
        var parser = TemplateParser(text, parameters: parameters, json: json)
        var stack: [OpenBlock] = []
        do {
            let nodes = try parser.nodes(until: &stack, eachDepth: 0)
            if parser.problems.isEmpty { return Template(nodes: nodes, source: text) }
        } catch {
            // A problem the rest of the text cannot be read past (a tag never closed).
            parser.problems.append(error)
        }
        throw TemplateErrors(all: parser.problems)
    }

    /// Notes a problem the parser can read past.
    private mutating func note(_ problem: TemplateError) throws(TemplateError) {
        problems.append(problem)
        if problems.count >= TemplateParser.maxProblems {
            throw TemplateError(line: problem.line, column: problem.column,
                                message: "stopped after \(TemplateParser.maxProblems) problems", hint: "fix these and check again")
        }
    }

    private struct OpenBlock {
        let name: String
        let position: TemplatePosition
    }

    private enum Tag {
        /// `raw`: written in triple braces, never escaped.
        case value(TemplateExpression, TemplatePosition, raw: Bool)
        case open(name: String, arguments: [TemplateExpression], hash: [String: TemplateExpression], TemplatePosition)
        case close(String, TemplatePosition)
        case elseTag(TemplatePosition)
        case comment
    }

    // MARK: Nodes

    /// Nodes up to the end of the text, or up to the `{{else}}`/`{{/name}}` of the innermost open block.
    /// Returns at an `else` or a close with `pendingEnd` set, so the caller can tell which.
    private var pendingEnd: (isElse: Bool, name: String, position: TemplatePosition)?

    private mutating func nodes(until stack: inout [OpenBlock], eachDepth: Int) throws(TemplateError) -> [TemplateNode] {
        var out: [TemplateNode] = []
        var text: [UInt8] = []
        func flush() {
            guard !text.isEmpty else { return }
            json?.read(text)
            out.append(.text(String(decoding: text, as: UTF8.self)))
            text.removeAll()
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), starts(with: "\\{{") {
                advance(1)
                text.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "{")])
                advance(2)
                continue
            }
            guard starts(with: "{{") else {
                text.append(bytes[index])
                advance(1)
                continue
            }
            let stripBefore = index + 2 < bytes.count && bytes[index + 2] == UInt8(ascii: "~")
            if stripBefore { while let last = text.last, last == 0x20 || last == 0x0A || last == 0x09 || last == 0x0D { text.removeLast() } }
            flush()
            let (tag, stripAfter) = try readTag(eachDepth: eachDepth)
            if stripAfter { while index < bytes.count, [0x20, 0x0A, 0x09, 0x0D].contains(bytes[index]) { advance(1) } }
            switch tag {
            case .comment: continue
            case let .value(expression, position, raw):
                out.append(.value(expression, position: position, inJSONString: !raw && json?.inString == true))
            case let .open(name, arguments, hash, position):
                guard stack.count < TemplateParser.maxNesting else {
                    throw TemplateError(line: position.line, column: position.column,
                                        message: "blocks nest more than \(TemplateParser.maxNesting) deep here",
                                        hint: "stubd allows at most \(TemplateParser.maxNesting) open blocks ({{#if}}, {{#each}}, …) at once; "
                                            + "close some before opening more, or split the answer across routes")
                }
                stack.append(OpenBlock(name: name, position: position))
                let innerEach = eachDepth + (name == "each" ? 1 : 0)
                let opened = json
                let body = try nodes(until: &stack, eachDepth: innerEach)
                var inverse: [TemplateNode] = []
                if let end = pendingEnd, end.isElse {
                    pendingEnd = nil
                    // The {{else}} branch starts where the block did, not where its body ended.
                    let afterBody = json
                    json = opened
                    inverse = try nodes(until: &stack, eachDepth: eachDepth)
                    json = afterBody
                    while let again = pendingEnd, again.isElse {
                        try note(TemplateError(line: again.position.line, column: again.position.column,
                                               message: "a second {{else}} in {{#\(name)}}", hint: "a block has at most one {{else}}"))
                        pendingEnd = nil
                        _ = try nodes(until: &stack, eachDepth: eachDepth)
                    }
                }
                stack.removeLast()
                out.append(.block(name: name, arguments: arguments, hash: hash, body: body, inverse: inverse, position: position))
                guard let end = pendingEnd else {
                    try note(TemplateError(line: position.line, column: position.column, message: "{{#\(name)}} is never closed",
                                           hint: "add {{/\(name)}} where the block ends"))
                    continue
                }
                if end.name != name {
                    // The close of a block further out: this one ends here unclosed, and that one gets its close.
                    if stack.contains(where: { $0.name == end.name }) {
                        try note(TemplateError(line: position.line, column: position.column, message: "{{#\(name)}} is never closed",
                                               hint: "add {{/\(name)}} before {{/\(end.name)}}"))
                        return out
                    }
                    try note(TemplateError(line: end.position.line, column: end.position.column,
                                           message: "{{/\(end.name)}} closes {{#\(name)}}",
                                           hint: "close blocks in the reverse order they were opened: {{/\(name)}}", opened: position))
                }
                pendingEnd = nil
            case .elseTag(let position):
                guard !stack.isEmpty else {
                    try note(TemplateError(line: position.line, column: position.column, message: "{{else}} outside a block",
                                           hint: "{{else}} belongs inside {{#if}}, {{#unless}}, {{#each}} or {{#eq}}"))
                    continue
                }
                flush()
                pendingEnd = (true, stack.last!.name, position)
                return out
            case .close(let name, let position):
                guard !stack.isEmpty else {
                    try note(TemplateError(line: position.line, column: position.column, message: "{{/\(name)}} closes no block",
                                           hint: "remove it, or open the block with {{#\(name) …}}"))
                    continue
                }
                flush()
                pendingEnd = (false, name, position)
                return out
            }
        }
        flush()
        return out
    }

    // MARK: Tags

    private mutating func readTag(eachDepth: Int) throws(TemplateError) -> (Tag, stripAfter: Bool) {
        let position = TemplatePosition(line: line, column: column)
        let triple = starts(with: "{{{")
        advance(triple ? 3 : 2)
        if index < bytes.count, bytes[index] == UInt8(ascii: "~") { advance(1) }
        if !triple, index < bytes.count, bytes[index] == UInt8(ascii: "!") {
            let long = starts(with: "!--")
            let end = long ? "--}}" : "}}"
            while index < bytes.count, !starts(with: end) { advance(1) }
            guard index < bytes.count else {
                throw TemplateError(line: position.line, column: position.column, message: "a comment is never closed", hint: "end it with \(end)")
            }
            advance(end.utf8.count)
            return (.comment, false)
        }
        // The tag's inside, up to its closing braces.
        // Spaces before the inside are skipped here, not trimmed later, so its terms' columns are theirs.
        while index < bytes.count, [0x20, 0x0A, 0x09, 0x0D].contains(bytes[index]) { advance(1) }
        let start = index
        let insideStart = TemplatePosition(line: line, column: column)
        let closing = triple ? "}}}" : "}}"
        var quote: UInt8?
        while index < bytes.count {
            let b = bytes[index]
            if let q = quote { if b == q { quote = nil } }
            else if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") { quote = b }
            else if starts(with: closing) || starts(with: "~" + closing) { break }
            advance(1)
        }
        guard index < bytes.count else {
            throw TemplateError(line: position.line, column: position.column, message: "a tag is never closed",
                                hint: "end it with \(closing)")
        }
        var inside = Array(bytes[start..<index])
        var stripAfter = false
        if bytes[index] == UInt8(ascii: "~") { stripAfter = true; advance(1) }
        advance(closing.utf8.count)
        while let f = inside.first, f == 0x20 || f == 0x0A || f == 0x09 || f == 0x0D { inside.removeFirst() }
        while let l = inside.last, l == 0x20 || l == 0x0A || l == 0x09 || l == 0x0D { inside.removeLast() }
        let text = String(decoding: inside, as: UTF8.self)
        if text.isEmpty {
            try note(TemplateError(line: position.line, column: position.column, message: "an empty tag", hint: "write a value between the braces, or \\{{ for literal braces"))
            return (.comment, stripAfter)
        }
        if text == "else" || text == "^" { return (.elseTag(position), stripAfter) }
        if text.hasPrefix("/") {
            return (.close(String(text.dropFirst()).trimmingSpaces, position), stripAfter)
        }
        let isBlock = text.hasPrefix("#")
        do {
            return (try meaning(of: text, isBlock: isBlock, at: position, insideStart: insideStart, eachDepth: eachDepth, triple: triple), stripAfter)
        } catch {
            try note(error)
            // A block that opened wrongly still opens, so its body and its close are checked as written.
            guard isBlock else { return (.comment, stripAfter) }
            let name = text.dropFirst().prefix { $0 != " " && $0 != "\n" && $0 != "\t" && $0 != "\r" }
            return (.open(name: String(name), arguments: [], hash: [:], position), stripAfter)
        }
    }

    /// What a tag's inside says, once it has been read whole.
    private func meaning(of text: String, isBlock: Bool, at position: TemplatePosition, insideStart: TemplatePosition,
                         eachDepth: Int, triple: Bool) throws(TemplateError) -> Tag {
        // A block's terms start after its `#`.
        let termsStart = TemplatePosition(line: insideStart.line, column: insideStart.column + (isBlock ? 1 : 0))
        var lexer = ExpressionLexer(Array((isBlock ? String(text.dropFirst()) : text).utf8), at: termsStart)
        let terms = try lexer.terms()
        guard let first = terms.first else {
            throw TemplateError(line: position.line, column: position.column, message: "an empty tag", hint: nil)
        }
        if isBlock {
            guard case .path(let parts, let name) = first.expression, parts.count == 1, !first.isHash else {
                throw TemplateError(line: position.line, column: position.column, message: "a block starts with a helper name",
                                    hint: "{{#if …}}, {{#unless …}}, {{#each …}} or {{#eq … …}}")
            }
            guard let helper = TemplateParser.helpers[name], helper.block else {
                let blocks = TemplateParser.helpers.filter { $0.value.block }.keys.sorted()
                throw TemplateError(line: position.line, column: position.column, message: "unknown block helper '#\(name)'",
                                    hint: TemplateParser.nearest(name, in: blocks).map { "did you mean '#\($0)'?" } ?? "blocks: " + blocks.map { "#" + $0 }.joined(separator: ", "))
            }
            let (arguments, hash) = try split(Array(terms.dropFirst()), helper: name, position: position, eachDepth: eachDepth)
            try checkArity(name, helper, arguments, hash, position)
            return .open(name: name, arguments: arguments, hash: hash, position)
        }
        let expression = try build(terms, position: position, eachDepth: eachDepth)
        return .value(expression, position, raw: triple)
    }

    /// A whole tag's or a parenthesised expression's terms: a lone value, or a helper call.
    private func build(_ terms: [ExpressionLexer.Term], position: TemplatePosition, eachDepth: Int) throws(TemplateError) -> TemplateExpression {
        let first = terms[0]
        if case .path(let parts, let name) = first.expression, parts.count == 1, let helper = TemplateParser.helpers[name] {
            guard helper.inline else {
                throw TemplateError(line: first.position.line, column: first.position.column, message: "'\(name)' is a block helper",
                                    hint: "write {{#\(name) …}}…{{/\(name)}}")
            }
            let (arguments, hash) = try split(Array(terms.dropFirst()), helper: name, position: first.position, eachDepth: eachDepth)
            try checkArity(name, helper, arguments, hash, first.position)
            return .call(helper: name, arguments: arguments, hash: hash)
        }
        if terms.count > 1 {
            if case .path(let parts, let name) = first.expression, parts.count == 1 {
                let names = TemplateParser.helpers.filter { $0.value.inline }.keys.sorted()
                throw TemplateError(line: first.position.line, column: first.position.column, message: "unknown helper '\(name)'",
                                    hint: TemplateParser.nearest(name, in: names).map { "did you mean '\($0)'?" } ?? "helpers: " + names.joined(separator: ", "))
            }
            throw TemplateError(line: first.position.line, column: first.position.column, message: "a value cannot take arguments",
                                hint: "a tag is one value, or a helper and its arguments")
        }
        try checkValue(first.expression, at: first.position, eachDepth: eachDepth)
        return first.expression
    }

    private func split(_ terms: [ExpressionLexer.Term], helper: String, position: TemplatePosition, eachDepth: Int)
        throws(TemplateError) -> ([TemplateExpression], [String: TemplateExpression]) {
        var arguments: [TemplateExpression] = []
        var hash: [String: TemplateExpression] = [:]
        for term in terms {
            try checkTree(term.expression, at: term.position, eachDepth: eachDepth)
            if let key = term.hashKey { hash[key] = term.expression } else { arguments.append(term.expression) }
        }
        return (arguments, hash)
    }

    // MARK: Reading

    private func starts(with text: String) -> Bool {
        let t = Array(text.utf8)
        guard index + t.count <= bytes.count else { return false }
        return bytes[index..<index + t.count].elementsEqual(t)
    }

    private mutating func advance(_ n: Int) {
        for _ in 0..<n where index < bytes.count {
            if bytes[index] == 0x0A { line += 1; column = 1 } else if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

/// Turns a GraphQL document's text into tokens (spec, October 2021, §2.1): punctuators, names,
/// numbers, strings and block strings; white space, commas and `#` comments are skipped. Errors
/// carry the line and column they were found at, which a stub's load problem turns into the YAML
/// file's own.
struct GraphQLLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var line = 1
    private var lineStart = 0
    /// Just after the last token: where the end of the document is reported, so a query missing
    /// its last `}` is placed on the line it stops at, not on the blank line after it.
    private var afterLastToken = (line: 1, column: 1)

    /// Documents larger than this are refused unread: Apollo's persisted-queries docs call a query
    /// of 10 KB large, and the request's body limit already bounds what reaches here.
    static let maximumLength = 1 << 20

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// Every token, ending with `.end`.
    static func tokens(_ text: String) throws(GraphQLSyntaxError) -> [GraphQLToken] {
        guard text.utf8.count <= maximumLength else {
            throw GraphQLSyntaxError(message: "the document is longer than \(maximumLength) bytes", line: 1, column: 1)
        }
        var lexer = GraphQLLexer(text)
        var tokens: [GraphQLToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var column: Int { position - lineStart + 1 }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private func error(_ message: String, line: Int? = nil, column: Int? = nil) -> GraphQLSyntaxError {
        GraphQLSyntaxError(message: message, line: line ?? self.line, column: column ?? self.column)
    }

    private mutating func newLine(after index: Int) {
        line += 1
        lineStart = index + 1
    }

    mutating func next() throws(GraphQLSyntaxError) -> GraphQLToken {
        let token = try read()
        afterLastToken = (line, column)
        return token
    }

    private mutating func read() throws(GraphQLSyntaxError) -> GraphQLToken {
        skipIgnored()
        let (startLine, startColumn) = (line, column)
        func token(_ kind: GraphQLToken.Kind, _ text: String) -> GraphQLToken {
            GraphQLToken(kind: kind, text: text, line: startLine, column: startColumn)
        }
        guard let c = peek() else {
            return GraphQLToken(kind: .end, text: "", line: afterLastToken.line, column: afterLastToken.column)
        }
        switch c {
        case "!", "$", "&", "(", ")", ":", "=", "@", "[", "]", "{", "|", "}":
            position += 1
            return token(.punctuator, String(c))
        case ".":
            guard peek(1) == ".", peek(2) == "." else { throw error("'.' must be part of '...' (a spread)") }
            position += 3
            return token(.punctuator, "...")
        case "\"":
            if peek(1) == "\"", peek(2) == "\"" { return token(.string, try blockString()) }
            return token(.string, try string())
        case "-", "0"..."9":
            let (kind, text) = try number()
            return token(kind, text)
        default:
            guard Self.isNameStart(c) else {
                throw error("unexpected character '\(c.escaped(asASCII: true))'")
            }
            let start = position
            while let n = peek(), Self.isNameContinue(n) { position += 1 }
            return token(.name, String(String.UnicodeScalarView(scalars[start..<position])))
        }
    }

    private mutating func skipIgnored() {
        while let c = peek() {
            switch c {
            case " ", "\t", ",", "\u{FEFF}": position += 1
            case "\n":
                newLine(after: position)
                position += 1
            case "\r":
                // `\r\n` is one line terminator.
                if peek(1) == "\n" { position += 1 }
                newLine(after: position)
                position += 1
            case "#":
                while let n = peek(), n != "\n", n != "\r" { position += 1 }
            default: return
            }
        }
    }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }

    static func isNameContinue(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }

    private mutating func digits() -> Int {
        let start = position
        while let d = peek(), ("0"..."9").contains(d) { position += 1 }
        return position - start
    }

    private mutating func number() throws(GraphQLSyntaxError) -> (GraphQLToken.Kind, String) {
        let start = position
        if peek() == "-" { position += 1 }
        if peek() == "0" {
            position += 1
            if let d = peek(), ("0"..."9").contains(d) { throw error("a number does not start with 0 unless it is 0") }
        } else if digits() == 0 {
            throw error("expected a digit")
        }
        var kind = GraphQLToken.Kind.int
        if peek() == "." {
            position += 1
            kind = .float
            guard digits() > 0 else { throw error("expected a digit after '.'") }
        }
        if peek() == "e" || peek() == "E" {
            position += 1
            kind = .float
            if peek() == "+" || peek() == "-" { position += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
        if let n = peek(), n == "." || Self.isNameStart(n) {
            throw error("a number cannot be followed by '\(n)'")
        }
        return (kind, String(String.UnicodeScalarView(scalars[start..<position])))
    }

    private mutating func string() throws(GraphQLSyntaxError) -> String {
        let (startLine, startColumn) = (line, column)
        position += 1
        var value = String.UnicodeScalarView()
        while let c = peek() {
            switch c {
            case "\"":
                position += 1
                return String(value)
            case "\n", "\r":
                throw error("a string ends at the end of its line; use a block string (\"\"\"…\"\"\") for several lines")
            case "\\":
                position += 1
                guard let e = peek() else { break }
                position += 1
                switch e {
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                case "/": value.append("/")
                case "b": value.append("\u{08}")
                case "f": value.append("\u{0C}")
                case "n": value.append("\n")
                case "r": value.append("\r")
                case "t": value.append("\t")
                case "u": value.append(try unicodeEscape())
                default: throw error("unknown escape '\\\(e)'", column: column - 2)
                }
            default:
                value.append(c)
                position += 1
            }
        }
        throw error("a string is not closed", line: startLine, column: startColumn)
    }

    private mutating func unicodeEscape() throws(GraphQLSyntaxError) -> Unicode.Scalar {
        var hex = ""
        if peek() == "{" {
            position += 1
            while let h = peek(), h != "}" { hex.unicodeScalars.append(h); position += 1 }
            guard peek() == "}" else { throw error("a \\u{…} escape is not closed") }
            position += 1
        } else {
            for _ in 0..<4 {
                guard let h = peek() else { break }
                hex.unicodeScalars.append(h)
                position += 1
            }
        }
        guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
            throw error("'\\u\(hex)' is not a Unicode scalar")
        }
        return scalar
    }

    /// `"""…"""`: raw text but for `\"""`, its common indentation and blank first and last lines
    /// removed (spec §2.9.4, BlockStringValue).
    private mutating func blockString() throws(GraphQLSyntaxError) -> String {
        let (startLine, startColumn) = (line, column)
        position += 3
        var raw = String.UnicodeScalarView()
        while let c = peek() {
            if c == "\"", peek(1) == "\"", peek(2) == "\"" {
                position += 3
                return Self.blockStringValue(String(raw))
            }
            if c == "\\", peek(1) == "\"", peek(2) == "\"", peek(3) == "\"" {
                raw.append(contentsOf: "\"\"\"".unicodeScalars)
                position += 4
                continue
            }
            if c == "\n" { newLine(after: position) }
            if c == "\r" { if peek(1) != "\n" { newLine(after: position) } }
            raw.append(c)
            position += 1
        }
        throw error("a block string is not closed", line: startLine, column: startColumn)
    }

    static func blockStringValue(_ raw: String) -> String {
        var lines = raw.replacingCRLF().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func indent(_ s: String) -> Int { s.prefix { $0 == " " || $0 == "\t" }.count }
        let common = lines.dropFirst().filter { indent($0) < $0.count }.map(indent).min()
        if let common, common > 0 {
            for i in lines.indices.dropFirst() { lines[i] = String(lines[i].dropFirst(min(common, lines[i].count))) }
        }
        while let first = lines.first, indent(first) == first.count { lines.removeFirst() }
        while let last = lines.last, indent(last) == last.count { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}

private extension String {
    /// `\r\n` and a lone `\r` as `\n`, the one line terminator a block string's value keeps.
    func replacingCRLF() -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for c in unicodeScalars {
            if c == "\r" { out.append("\n"); previousCR = true; continue }
            if c == "\n", previousCR { previousCR = false; continue }
            previousCR = false
            out.append(c)
        }
        return String(out)
    }
}

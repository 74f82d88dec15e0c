package import Foundation

/// A strict RFC 8259 parser that remembers line and column, so a broken stub
/// can be reported as `file:line:column` (Foundation's parser gives an offset at best).
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// Where the value being read sits, when the caller keeps literals (`parseKeepingLiterals`).
    private var path: [PathStep]?
    private var literals: [String: NumberLiteral] = [:]
    /// Whether a number past 2^53 was read: only then does `parseKeepingLiterals` read again, keeping paths.
    private var sawInexact = false

    private enum PathStep {
        case key(String)
        case index(Int)
    }

    package static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(data))
        return try parser.document()
    }

    /// As `parse`, with the literal of every number a Double cannot hold exactly (past 2^53), by its
    /// JSON pointer (`/id`, `/items/0`; `""` for the whole document): what a validator compares exactly.
    ///
    /// A request body is read on the hot path, and almost none holds such a number: it is read as
    /// `parse` reads it (one comparison more per number), and only one that holds one is read again
    /// keeping the path to each value.
    package static func parseKeepingLiterals(_ data: Data) throws(JSONSyntaxError) -> (value: JSONValue, literals: [String: NumberLiteral]) {
        let bytes = Array(data)
        var parser = JSONParser(bytes: bytes)
        let value = try parser.document()
        guard parser.sawInexact else { return (value, [:]) }
        var keeping = JSONParser(bytes: bytes)
        keeping.path = []
        return (try keeping.document(), keeping.literals)
    }

    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is tolerated, as most editors can write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
    }

    private mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("the file is empty; a JSON stub needs a value such as {} or []") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected \(describe(bytes[index])) after the end of the JSON value") }
        return value
    }

    private func error(_ message: String) -> JSONSyntaxError {
        // Columns count characters, not bytes, so they match what an editor shows.
        let prefix = bytes[lineStart..<min(index, bytes.count)]
        let column = (String(decoding: prefix, as: UTF8.self).count) + 1
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return String(format: "byte 0x%02X", byte)
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("the JSON ends too early: a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "'"): throw error("strings need double quotes, not single quotes")
        case UInt8(ascii: "}"), UInt8(ascii: "]"): throw error("a value is missing before \(describe(bytes[index])) (trailing comma?)")
        default: throw error("unexpected \(describe(bytes[index])); expected a JSON value")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("unexpected \(describe(bytes[index])); did you mean \(word)?")
        }
        index += utf8.count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONLimits.parserDepth { throw error("nesting deeper than \(JSONLimits.parserDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter(); defer { depth -= 1 }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("the JSON ends inside an object: '}' is missing") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
                throw error("unexpected \(describe(bytes[index])); expected a key in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            path?.append(.key(key))
            members[key] = try parseValue()
            path?.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error("the JSON ends inside an object: '}' is missing") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("unexpected \(describe(bytes[index])); expected ',' or '}' (missing comma?)")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter(); defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            path?.append(.index(items.count))
            items.append(try parseValue())
            path?.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error("the JSON ends inside an array: ']' is missing") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw error("unexpected \(describe(bytes[index])); expected ',' or ']' (missing comma?)")
            }
        }
    }

    /// Decodes into one byte buffer, so a string of escapes costs linear time: appending each
    /// escape to a `String` was quadratic (400k `\u00e9` took 35 s).
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var utf8: [UInt8] = []
        var run = index
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                utf8.append(contentsOf: bytes[run..<index])
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                utf8.append(contentsOf: bytes[run..<index])
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): append(try unicodeEscape(), to: &utf8)
                default:
                    index -= 1
                    throw error("invalid escape \\\(Character(Unicode.Scalar(escape))) in a string")
                }
                run = index
            case 0x0A:
                throw error("a string is not closed before the end of the line (missing '\"'?)")
            case 0x00..<0x20:
                throw error("control character \(describe(byte)) inside a string; escape it")
            case 0x80...:
                // JSON text is UTF-8 (RFC 8259 §8.1): a Latin-1 byte or a cut sequence would
                // otherwise become U+FFFD silently, and a recording keep a body no client could read.
                index += try utf8SequenceLength(at: index)
            default:
                index += 1
            }
        }
        throw error("the JSON ends inside a string: '\"' is missing")
    }

    /// The length of the well-formed UTF-8 sequence at `start` (Unicode's table 3-7: no overlong
    /// forms, no surrogates, nothing past U+10FFFF), or an error placed at its first byte.
    private func utf8SequenceLength(at start: Int) throws(JSONSyntaxError) -> Int {
        let lead = bytes[start]
        let length: Int, second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw error("\(describe(lead)) is not UTF-8; JSON text must be UTF-8 (was it saved as Latin-1?)")
        }
        let valid = start + length <= bytes.count && second.contains(bytes[start + 1])
            && (2..<length).allSatisfy { (0x80...0xBF).contains(bytes[start + $0]) }
        guard valid else {
            throw error("\(describe(lead)) starts a UTF-8 sequence that is cut short or malformed; JSON text must be UTF-8")
        }
        return length
    }

    /// The scalar of a `\uXXXX` escape (the `\u` already read), joining a surrogate pair as
    /// RFC 8259 says. A lone or reversed surrogate is an error, not a replacement character.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let code = try hex4()
        switch code {
        case 0xDC00...0xDFFF:
            index -= 6
            throw error("\\u\(String(code, radix: 16, uppercase: true)) is a low surrogate with no high surrogate before it")
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                index -= 6
                throw error("\\u\(String(code, radix: 16, uppercase: true)) is a high surrogate; a \\uDC00–\\uDFFF escape must follow it")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                index -= 6
                throw error("\\u\(String(low, radix: 16, uppercase: true)) does not complete the surrogate pair; expected \\uDC00–\\uDFFF")
            }
            return Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))!
        default:
            return Unicode.Scalar(code)!
        }
    }

    private func append(_ scalar: Unicode.Scalar, to utf8: inout [UInt8]) {
        UTF8.encode(scalar) { utf8.append($0) }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hex digits")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
            return p.index - s
        }
        let intStart = index
        let intDigits = digits(&self)
        if intDigits == 0 { throw error("a number needs digits") }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") { index = intStart; throw error("numbers may not have leading zeros") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // `1e999` reads as infinity, which JSON cannot carry back out: refuse it here.
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("the number \(text.prefix(40)) is too large for a 64-bit float")
        }
        if value.magnitude >= NumberLiteral.exactLimit { sawInexact = true }
        if let path, value.magnitude >= NumberLiteral.exactLimit, let literal = NumberLiteral(text) {
            var pointer = ""
            for step in path {
                switch step {
                case .key(let k): pointer += "/" + JSONPointer.escape(k)
                case .index(let i): pointer += "/\(i)"
                }
            }
            literals[pointer] = literal
        }
        return .number(value)
    }
}

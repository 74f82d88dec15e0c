import StubdEngine

/// Reads a pattern in the ECMA-262 dialect JSON Schema names, by Unicode scalar: alternation,
/// groups (capturing, `(?:…)`, named, lookarounds), quantifiers greedy and lazy, classes with
/// ranges and `\d \w \s` and their negations, `\p{…}`, escapes up to `\u{…}` and surrogate pairs.
/// Where Annex B reads a stray `{`, `}` or `]` as itself, so does this.
struct PatternParser {
    private let scalars: [UInt32]
    private var position = 0
    private(set) var captureCount = 0
    private var names: [String: Int] = [:]
    /// `\k<name>` seen before the group it names, resolved at the end.
    private var namedReferences: [(name: String, offset: Int)] = []
    private var highestReference = (number: 0, offset: 0)

    /// Parses `source` whole.
    static func parse(_ source: String) throws(PatternSyntaxError) -> (node: PatternNode, captures: Int) {
        var parser = PatternParser(scalars: source.unicodeScalars.map(\.value))
        let node = try parser.disjunction()
        if parser.position < parser.scalars.count {
            throw PatternSyntaxError(offset: parser.position, problem: "unmatched ')'")
        }
        if parser.highestReference.number > parser.captureCount {
            throw PatternSyntaxError(offset: parser.highestReference.offset,
                                     problem: "\\\(parser.highestReference.number) refers to a group the pattern does not have (it has \(parser.captureCount))")
        }
        for reference in parser.namedReferences where parser.names[reference.name] == nil {
            throw PatternSyntaxError(offset: reference.offset, problem: "\\k<\(reference.name)> names no group")
        }
        return (parser.resolvingNames(node), parser.captureCount)
    }

    private init(scalars: [UInt32]) { self.scalars = scalars }

    private var atEnd: Bool { position >= scalars.count }
    private func peek(_ ahead: Int = 0) -> UInt32? { position + ahead < scalars.count ? scalars[position + ahead] : nil }
    private func isNext(_ text: String) -> Bool {
        let wanted = text.unicodeScalars.map(\.value)
        return position + wanted.count <= scalars.count && Array(scalars[position..<position + wanted.count]) == wanted
    }
    private func fail(_ problem: String) -> PatternSyntaxError { PatternSyntaxError(offset: position, problem: problem) }

    private mutating func disjunction() throws(PatternSyntaxError) -> PatternNode {
        var alternatives = [try alternative()]
        while peek() == 0x7C { // |
            position += 1
            alternatives.append(try alternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func alternative() throws(PatternSyntaxError) -> PatternNode {
        var terms: [PatternNode] = []
        while let c = peek(), c != 0x7C, c != 0x29 { // | )
            terms.append(try term())
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .concatenation(terms)
        }
    }

    private mutating func term() throws(PatternSyntaxError) -> PatternNode {
        let start = position
        let c = peek()!
        let atom: PatternNode
        var quantifiable = true
        switch c {
        case 0x5E: position += 1; atom = .assertion(.start); quantifiable = false // ^
        case 0x24: position += 1; atom = .assertion(.end); quantifiable = false // $
        case 0x2E: position += 1; atom = .set(.dot) // .
        case 0x5B: atom = .set(try characterClass()) // [
        case 0x28: // (
            let parsed = try group()
            atom = parsed.node
            quantifiable = parsed.quantifiable
        case 0x5C: // backslash
            if peek(1) == 0x62 || peek(1) == 0x42 { // \b \B
                atom = .assertion(peek(1) == 0x62 ? .wordBoundary : .notWordBoundary)
                position += 2
                quantifiable = false
            } else {
                atom = try atomEscape()
            }
        case 0x2A, 0x2B, 0x3F: // * + ?
            throw fail("nothing to repeat before '\(Character(Unicode.Scalar(c)!))'")
        case 0x7B: // {
            if quantifierBounds(at: position) != nil { throw fail("nothing to repeat before '{'") }
            position += 1
            atom = .set(.single(c))
        default:
            position += 1
            atom = .set(.single(c))
        }
        guard let bounds = quantifier() else { return atom }
        let (min, max, length) = bounds
        guard quantifiable else {
            throw PatternSyntaxError(offset: start, problem: "an assertion (^, $, \\b, \\B, lookbehind) cannot be repeated")
        }
        position += length
        if let max, max < min { throw fail("numbers out of order in a {\(min),\(max)} quantifier") }
        var greedy = true
        if peek() == 0x3F { position += 1; greedy = false } // lazy
        return .repetition(atom, min: min, max: max, greedy: greedy)
    }

    /// The quantifier at the position, without consuming it: bounds and its length.
    private func quantifier() -> (Int, Int?, Int)? {
        switch peek() {
        case 0x2A: return (0, nil, 1)
        case 0x2B: return (1, nil, 1)
        case 0x3F: return (0, 1, 1)
        case 0x7B: return quantifierBounds(at: position)
        default: return nil
        }
    }

    /// `{n}`, `{n,}`, `{n,m}` at `index`; nil when the brace starts none (Annex B: a literal `{`).
    /// Bounds past a million are held at a million: no input is that long, and the count stays small.
    private func quantifierBounds(at index: Int) -> (Int, Int?, Int)? {
        var i = index + 1
        func number() -> Int? {
            let start = i
            var value = 0
            while i < scalars.count, (0x30...0x39).contains(scalars[i]) {
                value = Swift.min(1_000_000, value * 10 + Int(scalars[i] - 0x30))
                i += 1
            }
            return i > start ? value : nil
        }
        guard let min = number() else { return nil }
        var max: Int? = min
        if i < scalars.count, scalars[i] == 0x2C { // ,
            i += 1
            max = number()
        }
        guard i < scalars.count, scalars[i] == 0x7D else { return nil }
        return (min, max, i + 1 - index)
    }

    private mutating func group() throws(PatternSyntaxError) -> (node: PatternNode, quantifiable: Bool) {
        let open = position
        position += 1
        var node: PatternNode
        var quantifiable = true
        if isNext("?:") {
            position += 2
            node = .group(try disjunction(), capture: nil)
        } else if isNext("?=") || isNext("?!") {
            let negated = peek(1) == 0x21
            position += 2
            node = .lookaround(try disjunction(), behind: false, negated: negated)
        } else if isNext("?<=") || isNext("?<!") {
            let negated = peek(2) == 0x21
            position += 3
            node = .lookaround(try disjunction(), behind: true, negated: negated)
            quantifiable = false
        } else if isNext("?<") {
            position += 2
            let name = try groupName()
            guard names[name] == nil else { throw fail("two groups are named '\(name)'") }
            captureCount += 1
            names[name] = captureCount
            let number = captureCount
            node = .group(try disjunction(), capture: number)
        } else if peek() == 0x3F {
            throw fail("unknown group kind '(?\(peek(1).flatMap { Unicode.Scalar($0) }.map { String(Character($0)) } ?? "")'")
        } else {
            captureCount += 1
            let number = captureCount
            node = .group(try disjunction(), capture: number)
        }
        guard peek() == 0x29 else { throw PatternSyntaxError(offset: open, problem: "unclosed '('") }
        position += 1
        return (node, quantifiable)
    }

    /// `name>` after `(?<` or `\k<`.
    private mutating func groupName() throws(PatternSyntaxError) -> String {
        var name = ""
        while let c = peek(), c != 0x3E {
            guard let s = Unicode.Scalar(c), s.properties.isIDContinue || c == 0x24 else { throw fail("a group name holds letters, digits, _ and $") }
            name.unicodeScalars.append(s)
            position += 1
        }
        guard peek() == 0x3E, !name.isEmpty else { throw fail("a group name ends with '>'") }
        position += 1
        return name
    }

    /// An escape outside a class: a back-reference, a class escape or a character.
    private mutating func atomEscape() throws(PatternSyntaxError) -> PatternNode {
        let start = position
        position += 1 // the backslash
        guard let c = peek() else { throw fail("the pattern ends with a lone backslash") }
        if (0x31...0x39).contains(c) { // \1 … \9…
            var number = 0
            while let d = peek(), (0x30...0x39).contains(d) { number = Swift.min(100_000, number * 10 + Int(d - 0x30)); position += 1 }
            if number > highestReference.number { highestReference = (number, start) }
            return .backreference(number)
        }
        if c == 0x6B, peek(1) == 0x3C { // \k<name>
            position += 2
            let name = try groupName()
            namedReferences.append((name, start))
            return .backreference(-(namedReferences.count)) // resolved once every group is known
        }
        return .set(try characterEscape(inClass: false))
    }

    /// `\d`, `\p{L}`, `\n`, `\u0041`…: the set one escape stands for (the backslash consumed).
    private mutating func characterEscape(inClass: Bool) throws(PatternSyntaxError) -> ScalarSet {
        let c = peek()!
        position += 1
        switch c {
        case 0x64: return .digits // d
        case 0x44: return ScalarSet.digits.complement // D
        case 0x77: return .word // w
        case 0x57: return ScalarSet.word.complement // W
        case 0x73: return .space // s
        case 0x53: return ScalarSet.space.complement // S
        case 0x74: return .single(0x09) // t
        case 0x6E: return .single(0x0A) // n
        case 0x76: return .single(0x0B) // v
        case 0x66: return .single(0x0C) // f
        case 0x72: return .single(0x0D) // r
        case 0x62 where inClass: return .single(0x08) // [\b] is backspace
        case 0x30 where !(peek().map { (0x30...0x39).contains($0) } ?? false): return .single(0) // \0
        case 0x63: // \cX
            if let letter = peek(), (0x41...0x5A).contains(letter) || (0x61...0x7A).contains(letter) {
                position += 1
                return .single(letter % 32)
            }
            position -= 1 // Annex B: a backslash, and the `c` read again as itself
            return .single(0x5C)
        case 0x78: // \xHH
            if let value = hexDigits(2) { return .single(value) }
            return .single(0x78)
        case 0x75: // \uHHHH, \u{H…}
            if peek() == 0x7B {
                let open = position
                position += 1
                var value: UInt32 = 0
                var digits = 0
                while let d = peek(), let v = PatternParser.hexValue(d) { value = Swift.min(0x110000, value * 16 + v); digits += 1; position += 1 }
                guard peek() == 0x7D, digits > 0, value <= 0x10FFFF else {
                    throw PatternSyntaxError(offset: open, problem: "\\u{…} must hold a code point up to 10FFFF")
                }
                position += 1
                return ScalarSet.codePoint(value)
            }
            guard let value = hexDigits(4) else { return .single(0x75) }
            if (0xD800...0xDBFF).contains(value), isNext("\\u") {
                let saved = position
                position += 2
                if let low = hexDigits(4), (0xDC00...0xDFFF).contains(low) {
                    return .single(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00))
                }
                position = saved
            }
            return ScalarSet.codePoint(value)
        case 0x70, 0x50: // \p{…} \P{…}
            guard peek() == 0x7B else { return .single(c) }
            let open = position
            position += 1
            var name = ""
            while let d = peek(), d != 0x7D, let s = Unicode.Scalar(d) { name.unicodeScalars.append(s); position += 1 }
            guard peek() == 0x7D else { throw PatternSyntaxError(offset: open, problem: "unclosed \\p{") }
            position += 1
            guard let property = UnicodeProperty(name: name, negated: c == 0x50) else {
                throw PatternSyntaxError(offset: open - 2, problem: "unknown or unsupported Unicode property '\(name)' (General_Category values such as L, Lu, Nd, and Alphabetic, White_Space, ASCII… are known)")
            }
            return ScalarSet(ranges: [], properties: [property])
        default:
            // Identity escapes: \. \* \/ \- and, as Annex B allows, any other character.
            return .single(c)
        }
    }

    private mutating func hexDigits(_ count: Int) -> UInt32? {
        var value: UInt32 = 0
        for i in 0..<count {
            guard let d = peek(i), let v = PatternParser.hexValue(d) else { return nil }
            value = value * 16 + v
        }
        position += count
        return value
    }

    private static func hexValue(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// `[…]` or `[^…]`.
    private mutating func characterClass() throws(PatternSyntaxError) -> ScalarSet {
        let open = position
        position += 1
        let negated = peek() == 0x5E
        if negated { position += 1 }
        var members: [ScalarSet] = []
        while true {
            guard let c = peek() else { throw PatternSyntaxError(offset: open, problem: "unclosed '['") }
            if c == 0x5D { position += 1; break }
            let first = try classAtom()
            // A range `a-z`, unless the '-' ends the class or a side is a class escape (`[\d-z]`: three members).
            if peek() == 0x2D, let next = peek(1), next != 0x5D {
                let dash = position
                position += 1
                let second = try classAtom()
                if let low = first.singleScalar, let high = second.singleScalar {
                    guard low <= high else { throw PatternSyntaxError(offset: dash, problem: "range out of order in a character class") }
                    members.append(ScalarSet(ranges: [low...high]))
                } else {
                    members += [first, .single(0x2D), second]
                }
            } else {
                members.append(first)
            }
        }
        let set = ScalarSet.union(members)
        return negated ? set.complement : set
    }

    private mutating func classAtom() throws(PatternSyntaxError) -> ScalarSet {
        let c = peek()!
        if c == 0x5C {
            position += 1
            guard peek() != nil else { throw fail("the pattern ends with a lone backslash") }
            return try characterEscape(inClass: true)
        }
        position += 1
        return .single(c)
    }

    /// Named back-references, numbered once every group is known.
    private func resolvingNames(_ node: PatternNode) -> PatternNode {
        guard !namedReferences.isEmpty else { return node }
        switch node {
        case .backreference(let n) where n < 0: return .backreference(names[namedReferences[-n - 1].name] ?? 0)
        case .concatenation(let nodes): return .concatenation(nodes.map(resolvingNames))
        case .alternation(let nodes): return .alternation(nodes.map(resolvingNames))
        case .group(let inner, let capture): return .group(resolvingNames(inner), capture: capture)
        case .repetition(let inner, let min, let max, let greedy): return .repetition(resolvingNames(inner), min: min, max: max, greedy: greedy)
        case .lookaround(let inner, let behind, let negated): return .lookaround(resolvingNames(inner), behind: behind, negated: negated)
        default: return node
        }
    }
}

private extension ScalarSet {
    /// The one scalar a class member stands for, when it is one (a range's end).
    var singleScalar: UInt32? {
        guard let ranges = explicitRanges, ranges.count == 1, ranges[0].lowerBound == ranges[0].upperBound else { return nil }
        return ranges[0].lowerBound
    }

    /// A code point from `\u`: a lone surrogate is no scalar a Swift string can hold, so it matches nothing.
    static func codePoint(_ value: UInt32) -> ScalarSet {
        (0xD800...0xDFFF).contains(value) ? .nothing : .single(value)
    }
}

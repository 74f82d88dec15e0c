import StubdEngine

/// A string that a regular expression matches, for `pattern` in a schema: literals, escapes
/// (`\d \w \s`, escaped punctuation), classes (`[A-Z0-9_]`, `[^…]`), `.`, groups with `|` (the first
/// branch), and the quantifiers `? * + {n} {n,} {n,m}` (their least count, at least one for `+`).
/// Anything else (lookaround, backreferences) gives nil, and the caller says so.
struct PatternSampler {
    private let chars: [Character]
    private var at = 0
    private var random: SeededRandom

    /// The longest string a pattern is sampled to, in UTF-8 bytes.
    static let maximumLength = 1 << 20

    static func sample(_ pattern: String, random: inout SeededRandom) -> String? {
        var sampler = PatternSampler(chars: Array(pattern), random: random)
        let out = sampler.alternation()
        random = sampler.random
        guard let out, sampler.at == sampler.chars.count else { return nil }
        return out
    }

    private init(chars: [Character], random: SeededRandom) {
        self.chars = chars
        self.random = random
    }

    private var peek: Character? { at < chars.count ? chars[at] : nil }

    /// Branches separated by `|`; the first is written, the others only parsed.
    private mutating func alternation() -> String? {
        guard let first = sequence() else { return nil }
        while peek == "|" {
            at += 1
            guard sequence() != nil else { return nil }
        }
        return first
    }

    private mutating func sequence() -> String? {
        var out = ""
        while let c = peek, c != "|", c != ")" {
            if c == "^" || c == "$" { at += 1; continue }
            guard let part = atom(), let count = quantifier() else { return nil }
            for i in 0..<count {
                out += i == 0 ? part.first : part.again(&random)
                // Nested counts multiply (`((a{1000}){1000}){1000}` is 10^9 characters): past the
                // limit there is no sample, and the caller says the pattern cannot be sampled.
                if out.utf8.count > Self.maximumLength { return nil }
            }
        }
        return out
    }

    /// One atom: its first sample, and how to draw another for a repetition.
    private struct Atom {
        let first: String
        let choices: [Character]?
        func again(_ random: inout SeededRandom) -> String {
            guard let choices, !choices.isEmpty else { return first }
            return String(choices[random.below(choices.count)])
        }
    }

    private mutating func atom() -> Atom? {
        guard let c = peek else { return nil }
        at += 1
        switch c {
        case "(":
            if peek == "?" {
                // `(?:…)` is a plain group; other `(?…)` forms are not sampled.
                guard at + 1 < chars.count, chars[at + 1] == ":" else { return nil }
                at += 2
            }
            guard let inner = alternation(), peek == ")" else { return nil }
            at += 1
            return Atom(first: inner, choices: nil)
        case "[":
            return characterClass()
        case ".":
            return pick(Array("abcdefghijklmnopqrstuvwxyz"))
        case "\\":
            guard let e = peek else { return nil }
            at += 1
            guard let set = Self.escapeSet(e) else { return nil }
            return pick(set)
        case "*", "+", "?", "{", "}", "]":
            return nil
        default:
            return Atom(first: String(c), choices: nil)
        }
    }

    private mutating func pick(_ set: [Character]) -> Atom {
        Atom(first: String(set[random.below(set.count)]), choices: set)
    }

    private static let printable: [Character] = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

    /// nil for escapes that are not sampled (`\b`, backreferences, `\p{…}`).
    private static func escapeSet(_ e: Character) -> [Character]? {
        switch e {
        case "d": return Array("0123456789")
        case "w": return Array("abcdefghijklmnopqrstuvwxyz0123456789")
        case "s": return [" "]
        case "D", "W": return Array("-")
        case "S": return Array("x")
        case "n": return ["\n"]
        case "t": return ["\t"]
        default:
            return e.isLetter || e.isNumber ? nil : [e]
        }
    }

    private mutating func characterClass() -> Atom? {
        var negated = false
        if peek == "^" { negated = true; at += 1 }
        var set: [Character] = []
        while let c = peek, c != "]" {
            at += 1
            let low: [Character]
            if c == "\\" {
                guard let e = peek, let s = Self.escapeSet(e) else { return nil }
                at += 1
                low = s
            } else {
                low = [c]
            }
            if low.count == 1, peek == "-", at + 1 < chars.count, chars[at + 1] != "]" {
                at += 1
                var high = chars[at]
                at += 1
                if high == "\\" {
                    guard let e = peek else { return nil }
                    high = e
                    at += 1
                }
                guard let a = low[0].unicodeScalars.first?.value, let b = high.unicodeScalars.first?.value, a <= b else { return nil }
                for v in a...min(b, a + 400) { if let s = Unicode.Scalar(v) { set.append(Character(s)) } }
            } else {
                set += low
            }
        }
        guard peek == "]" else { return nil }
        at += 1
        if negated {
            let outside = Self.printable.filter { !set.contains($0) }
            return outside.isEmpty ? nil : pick(outside)
        }
        return set.isEmpty ? nil : pick(set)
    }

    /// How many times the atom before it is written; nil for a malformed `{…}`.
    private mutating func quantifier() -> Int? {
        var count = 1
        switch peek {
        case "?", "*": at += 1; count = 0
        case "+": at += 1; count = 1
        case "{":
            at += 1
            var digits = ""
            while let c = peek, c.isNumber { digits.append(c); at += 1 }
            guard let n = Int(digits), n <= 1000 else { return nil }
            while let c = peek, c != "}" { at += 1; _ = c }
            guard peek == "}" else { return nil }
            at += 1
            count = n
        default: return 1
        }
        if peek == "?" || peek == "+" { at += 1 }   // lazy and possessive forms count the same
        return count
    }
}

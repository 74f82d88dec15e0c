import StubdEngine

/// WireMock's URL regexes (`urlPathPattern`, `urlPattern`) as stubd paths. A stubd path is
/// literal segments, `{name}` segments (any one segment) and a trailing `/**` (anything below), so a
/// regex comes over when it is built of those: literal segments, a segment that is one character
/// class repeated (`[0-9]+`, `\d+`, `([a-z0-9-]+)`, `[^/]+`, `(?<id>.+)`), and a tail `/.*`. A segment
/// made looser (`{id}` takes any value, `[0-9]+` took digits) is said; anything else
/// (alternation, a class inside a literal such as `user-[0-9]+`, optional parts) is not guessed.
enum WireMockURLPattern {
    struct Translation: Equatable {
        var path: String
        var names: [String]
        /// Where the stubd path takes more than the regex did.
        var looser: [String]
    }

    /// The stubd path for `regex`, or why there is none.
    static func translate(_ regex: String) -> Result<Translation, Refusal> {
        var body = Substring(regex)
        if body.hasPrefix("^") { body = body.dropFirst() }
        if body.hasSuffix("$"), !body.hasSuffix("\\$") { body = body.dropLast() }
        var wildcard = false
        for tail in ["/.*", "/.+", "(/.*)?", "/?.*"] where body.hasSuffix(tail) {
            body = body.dropLast(tail.count)
            wildcard = true
            break
        }
        guard body.hasPrefix("/") || (body.isEmpty && wildcard) else {
            return .failure(Refusal("'\(regex)' does not start with '/' (a stubd path does; WireMock matches it against the whole path)"))
        }
        var segments: [String] = []
        var names: [String] = []
        var looser: [String] = []
        for raw in split(body.dropFirst()) {
            if let literal = literal(raw) {
                segments.append(literal)
            } else if let (name, what) = oneSegment(raw) {
                var chosen = name ?? "p\(names.count + 1)"
                while names.contains(chosen) { chosen += "_" }
                names.append(chosen)
                segments.append("{\(chosen)}")
                if what != "[^/]+" { looser.append("{\(chosen)} takes any one segment, not only \(what)") }
            } else {
                return .failure(Refusal("'\(regex)': its part '\(raw)' is a regex a stubd path cannot say (stubd paths are literal segments, {name} for one segment and a trailing /**); "
                                        + "write a route by hand or simplify the pattern"))
            }
        }
        var path = "/" + segments.joined(separator: "/")
        if wildcard { path = path == "/" ? "/**" : path + "/**" }
        return .success(Translation(path: path, names: names, looser: looser))
    }

    struct Refusal: Error, Equatable { let message: String; init(_ m: String) { message = m } }

    /// Splits on `/` outside brackets and parentheses.
    static func split(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0, inClass = false, escaped = false
        var start = text.startIndex
        for i in text.indices {
            let c = text[i]
            if escaped { escaped = false; continue }
            switch c {
            case "\\": escaped = true
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass: depth += 1
            case ")" where !inClass: depth -= 1
            case "/" where !inClass && depth == 0:
                parts.append(text[start..<i])
                start = text.index(after: i)
            default: break
            }
        }
        parts.append(text[start...])
        return parts
    }

    /// The segment's text when the regex matches exactly one string there (`\.` unescaped; a bare
    /// `.` read as itself, which is what a path holding one means).
    static func literal(_ segment: Substring) -> String? {
        var out = ""
        var escaped = false
        for c in segment {
            if escaped {
                guard !c.isLetter, !c.isNumber else { return nil } // \d, \w, \s, \1…: classes and references
                out.append(c)
                escaped = false
                continue
            }
            if c == "\\" { escaped = true; continue }
            if "[](){}*+?|^$".contains(c) { return nil }
            out.append(c)
        }
        return escaped || out.isEmpty || out.contains("{") || out == "**" ? nil : out
    }

    /// A segment that is one repeated class, optionally a group (named or not): its name and the class.
    static func oneSegment(_ segment: Substring) -> (name: String?, what: String)? {
        var inner = segment
        var name: String?
        if inner.hasPrefix("("), inner.hasSuffix(")") {
            inner = inner.dropFirst().dropLast()
            if inner.hasPrefix("?<") || inner.hasPrefix("?P<"), let close = inner.firstIndex(of: ">") {
                let candidate = String(inner[inner.index(inner.startIndex, offsetBy: inner.hasPrefix("?<") ? 2 : 3)..<close])
                name = SecretNames.isPlainIdentifier(candidate) ? candidate : nil
                inner = inner[inner.index(after: close)...]
            } else if inner.hasPrefix("?:") {
                inner = inner.dropFirst(2)
            }
        }
        // The atom: a class, an escape class, or any character.
        var atom: Substring
        if inner.hasPrefix("[") {
            guard let close = inner.dropFirst().firstIndex(of: "]") else { return nil }
            atom = inner[...close]
            if atom.dropFirst().dropLast().contains("[") { return nil }
        } else if inner.hasPrefix("\\"), inner.count >= 2, "dwDWsS".contains(inner[inner.index(after: inner.startIndex)]) {
            atom = inner.prefix(2)
        } else if inner.hasPrefix(".") {
            atom = inner.prefix(1)
        } else {
            return nil
        }
        let quantifier = inner.dropFirst(atom.count)
        // `+` or a count from 1 up; `*` and `{0,…}` would take an empty segment, which a path does not have.
        let repeats = quantifier == "+" || quantifier == "+?"
            || (quantifier.hasPrefix("{") && quantifier.hasSuffix("}") && !quantifier.hasPrefix("{0")
                && quantifier.dropFirst().dropLast().allSatisfy { $0.isNumber || $0 == "," })
        guard repeats || quantifier == "*" else { return nil }
        return (name, String(atom) + quantifier)
    }
}

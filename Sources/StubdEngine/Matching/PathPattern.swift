/// A route's path: literal segments, segments with `{param}`s (`{id}`, `{zip}.json`, `{y}.{format}`)
/// and an optional trailing `/**`.
package struct PathPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    package let segments: [PatternSegment]
    /// Convention stubs answer both `/a/b.json` and `/a/b`: the extension is optional on the last segment.
    package let optionalExtension: String?
    /// As written by the user (for logs and the admin API).
    package let text: String

    package init(stringLiteral value: String) {
        // A literal in source code is the programmer's; a malformed one is a bug there.
        self = try! PathPattern(parsing: value)
    }

    package init(parsing text: String, optionalExtension: String? = nil) throws(PatternError) {
        guard text.hasPrefix("/") else { throw PatternError("a path starts with '/': write \"/\(text)\"") }
        var segments: [PatternSegment] = []
        let parts = PathPattern.split(text)
        for (i, part) in parts.enumerated() {
            if part == "**" {
                guard i == parts.count - 1 else { throw PatternError("'**' may only end a path, as in /api/**") }
                segments.append(.wildcard)
                continue
            }
            if part == "." || part == ".." { throw PatternError("'\(part)' segments are not allowed in a path") }
            if part.contains("{") {
                segments.append(try PathPattern.parameterSegment(part))
            } else {
                guard !part.contains("}") else { throw PatternError("'}' without '{' in segment '\(part)'") }
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
        self.optionalExtension = optionalExtension
        self.text = text
    }

    package var description: String { text }

    /// The segments with parameter names erased: `/u/{id}` and `/u/{name}` have one shape, and
    /// take the same requests.
    package var shape: [PatternSegment] { segments.map(\.shape) }

    package var parameterNames: [String] {
        segments.flatMap(\.parameterNames)
    }

    /// A segment holding `{`: one parameter with optional fixed text around it (`{zip}.json`), or
    /// several with fixed text between them (`{y}.{format}`, matched as `CompoundSegment` says).
    private static func parameterSegment(_ part: Substring) throws(PatternError) -> PatternSegment {
        var names: [String] = []
        var texts: [String] = []
        var rest = part
        while let open = rest.firstIndex(of: "{") {
            let text = rest[..<open]
            guard !text.contains("}") else { throw PatternError("'}' without '{' in segment '\(part)'") }
            guard let close = rest[open...].firstIndex(of: "}") else { throw PatternError("'{' without '}' in segment '\(part)'") }
            let name = String(rest[rest.index(after: open)..<close])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw PatternError("parameter name '{\(name)}' must be letters, digits, '_' or '-'")
            }
            if let previous = names.last, text.isEmpty {
                throw PatternError("parameters {\(previous)} and {\(name)} touch in segment '\(part)', so where one ends cannot be known: "
                                   + "put fixed text between them ({\(previous)}-{\(name)}) or give each a segment ({\(previous)}/{\(name)})")
            }
            texts.append(String(text))
            names.append(name)
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.contains("}") else { throw PatternError("'}' without '{' in segment '\(part)'") }
        texts.append(String(rest))
        if names.count == 1 { return .parameter(name: names[0], prefix: texts[0], suffix: texts[1]) }
        return .compound(CompoundSegment(names: names, texts: texts))
    }

    /// Compares two patterns that both match a request, segment by segment from the left: a literal
    /// beats a parameter with fixed text (`{zip}.json`, `{y}.{format}`), which beats a bare `{param}`,
    /// which beats `**`. Nil when neither is more specific.
    package func isMoreSpecific(than other: PathPattern) -> Bool? {
        let (a, b) = (segments, other.segments)
        for i in 0..<max(a.count, b.count) {
            // Past a pattern's end only a wildcard of the other can still be matching, so rank it as one.
            let (ra, rb) = (i < a.count ? a[i].rank : 3, i < b.count ? b[i].rank : 3)
            if ra != rb { return ra < rb }
        }
        let (wa, wb) = (a.last == .wildcard, b.last == .wildcard)
        return wa == wb ? nil : wb
    }

    /// Splits a path into segments, ignoring empty ones (so `//a/` is `a`). Scans UTF-8 bytes:
    /// `String.split` walks grapheme clusters, which cost a quarter of a quota'd request.
    package static func split(_ path: some StringProtocol) -> [Substring] {
        let text = Substring(path)
        let bytes = text.utf8
        var segments: [Substring] = []
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "/") {
                if index > start { segments.append(text[start..<index]) }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        if start < bytes.endIndex { segments.append(text[start..<bytes.endIndex]) }
        return segments
    }

    /// Matches request segments; returns the captured parameters, or nil.
    package func match(_ request: [Substring]) -> [String: String]? {
        var params: [String: String] = [:]
        if matches(request, from: 0, into: &params) { return params }
        return nil
    }

    private func matches(_ request: [Substring], from start: Int, into params: inout [String: String]) -> Bool {
        for (i, segment) in segments.enumerated() {
            if case .wildcard = segment { return true }
            guard start + i < request.count else { return false }
            var piece = request[start + i]
            let isLast = i == segments.count - 1
            if isLast, request.count != segments.count { return false }
            if isLast, let ext = optionalExtension, piece.hasSuffix(ext), piece.count > ext.count {
                let stripped = piece.dropLast(ext.count)
                if accepts(segment, stripped, &params) { continue }
            }
            if isLast, optionalExtension != nil { piece = request[start + i] }
            guard accepts(segment, piece, &params) else { return false }
        }
        return segments.count == request.count
    }

    private func accepts(_ segment: PatternSegment, _ piece: Substring, _ params: inout [String: String]) -> Bool {
        switch segment {
        case .literal(let text): return piece == text
        case .parameter(let name, _, _):
            guard let value = segment.capture(piece) else { return false }
            params[name] = value
            return true
        case .compound(let compound):
            guard let values = compound.values(in: piece) else { return false }
            for (name, value) in zip(compound.names, values) { params[name] = String(value) }
            return true
        case .wildcard: return true
        }
    }
}

extension PathPattern {
    /// No parameter and no `**`: a request that reaches the route in the tree matches it.
    var isLiteral: Bool {
        segments.allSatisfy { if case .literal = $0 { true } else { false } }
    }
}

extension PathPattern {
    /// The n-th non-empty segment of a path, without splitting the rest of it.
    static func segment(_ n: Int, of path: String) -> Substring? {
        let bytes = path.utf8
        var seen = 0
        var start = bytes.startIndex
        var index = start
        while true {
            let atEnd = index == bytes.endIndex
            if atEnd || bytes[index] == UInt8(ascii: "/") {
                if index > start {
                    if seen == n { return path[start..<index] }
                    seen += 1
                }
                if atEnd { return nil }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
    }
}

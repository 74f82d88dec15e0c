/// One segment of a route pattern.
package enum PatternSegment: Sendable, Hashable {
    case literal(String)
    /// `{name}`, optionally with literal text around it in the same segment (`{zip}.json`, `v{version}`).
    case parameter(name: String, prefix: String, suffix: String)
    /// A trailing `**`: zero or more further segments.
    case wildcard

    func capture(_ segment: Substring) -> String? {
        guard case let .parameter(_, prefix, suffix) = self else { return nil }
        guard segment.count >= prefix.count + suffix.count + 1,
              segment.hasPrefix(prefix), segment.hasSuffix(suffix) else { return nil }
        return String(segment.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// The segment as matching sees it: a parameter's name changes what it is called, not what it takes.
    var shape: PatternSegment {
        guard case let .parameter(_, prefix, suffix) = self else { return self }
        return .parameter(name: "", prefix: prefix, suffix: suffix)
    }

    /// Lower is more specific: literal, then a parameter with fixed text, then a bare parameter, then `**`.
    var rank: UInt8 {
        switch self {
        case .literal: return 0
        case let .parameter(_, prefix, suffix): return prefix.isEmpty && suffix.isEmpty ? 2 : 1
        case .wildcard: return 3
        }
    }
}

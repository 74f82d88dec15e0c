/// One segment of a route pattern.
package enum PatternSegment: Sendable, Hashable {
    case literal(String)
    /// `{name}`, optionally with literal text around it in the same segment (`{zip}.json`, `v{version}`).
    case parameter(name: String, prefix: String, suffix: String)
    /// Two or more parameters with text between them (`{y}.{format}`). A case of its own so the
    /// common one-parameter segment keeps its direct prefix-and-suffix test.
    case compound(CompoundSegment)
    /// A trailing `**`: zero or more further segments.
    case wildcard

    func capture(_ segment: Substring) -> String? {
        guard case let .parameter(_, prefix, suffix) = self, Self.fits(segment, prefix, suffix) else { return nil }
        return String(segment.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// Whether a parameter or compound segment takes `segment` (false for the others, which the
    /// route tree files apart). Builds no value: the tree asks this at each parameter branch.
    package func accepts(_ segment: Substring) -> Bool {
        switch self {
        case let .parameter(_, prefix, suffix): Self.fits(segment, prefix, suffix)
        case .compound(let compound): compound.accepts(segment)
        case .literal, .wildcard: false
        }
    }

    /// A one-parameter segment's test: its fixed text around at least one character.
    private static func fits(_ segment: Substring, _ prefix: String, _ suffix: String) -> Bool {
        segment.count >= prefix.count + suffix.count + 1 && segment.hasPrefix(prefix) && segment.hasSuffix(suffix)
    }

    /// The segment as matching sees it: a parameter's name changes what it is called, not what it takes.
    var shape: PatternSegment {
        switch self {
        case let .parameter(_, prefix, suffix): .parameter(name: "", prefix: prefix, suffix: suffix)
        case .compound(let compound): .compound(compound.shape)
        case .literal, .wildcard: self
        }
    }

    /// The parameters' names, in order.
    var parameterNames: [String] {
        switch self {
        case .parameter(let name, _, _): [name]
        case .compound(let compound): compound.names
        case .literal, .wildcard: []
        }
    }

    /// As written in a pattern: `users`, `{zip}.json`, `{y}.{format}`, `**`.
    var written: String {
        switch self {
        case .literal(let text): text
        case let .parameter(name, prefix, suffix): "\(prefix){\(name)}\(suffix)"
        case .compound(let compound): compound.description
        case .wildcard: "**"
        }
    }

    /// Lower is more specific: literal, then a parameter with fixed text (a compound segment always
    /// has some), then a bare parameter, then `**`.
    var rank: UInt8 {
        switch self {
        case .literal: return 0
        case let .parameter(_, prefix, suffix): return prefix.isEmpty && suffix.isEmpty ? 2 : 1
        case .compound: return 1
        case .wildcard: return 3
        }
    }
}

/// Which requests a quota counts: `"GET /api/{key}/**"` or a route name.
package struct RouteSelector: Sendable, CustomStringConvertible {
    package let text: String
    package let method: MethodMatch
    /// Nil when the selector is a route name.
    package let pattern: PathPattern?
    package let routeName: String?
    /// Where the manifest wrote it, for a problem found once every route is known (a name no route
    /// has): line and column, 1-based; nil for a selector made in code.
    package let line: Int?
    package let column: Int?

    package var description: String { text }

    package init(text: String, method: MethodMatch, pattern: PathPattern?, routeName: String?, line: Int? = nil, column: Int? = nil) {
        self.text = text
        self.method = method
        self.pattern = pattern
        self.routeName = routeName
        self.line = line
        self.column = column
    }
}

extension RouteSelector {
    /// Whether this selector can apply to requests the route answers: tested on a sample path of the route.
    package func covers(_ route: Route) -> Bool {
        if let routeName { return route.name == routeName }
        guard let pattern else { return false }
        if case .only(let m) = method, case .only(let rm) = route.method, m != rm { return false }
        let sample = route.pattern.segments.map { segment -> Substring in
            switch segment {
            case .literal(let s): return Substring(s)
            case let .parameter(_, prefix, suffix): return Substring(prefix + "x" + suffix)
            case .compound(let compound): return Substring(compound.filled(with: compound.names.map { _ in "x" }))
            case .wildcard: return "x"
            }
        }
        if pattern.match(sample) != nil { return true }
        if let ext = route.pattern.optionalExtension, var last = sample.last {
            last += ext
            return pattern.match(Array(sample.dropLast()) + [last]) != nil
        }
        return false
    }

    /// Whether a concrete request falls under this selector, and the path parameters it captured.
    func applies(to request: RequestHead, segments: [Substring], route: Route) -> [String: String]? {
        if let routeName { return route.name == routeName ? [:] : nil }
        guard method.accepts(request.method), let pattern else { return nil }
        return pattern.match(segments)
    }
}

extension RouteSelector {
    /// For a selector whose pattern matches every path the route answers: where each of its
    /// parameters' values comes from. Nil when that depends on the request.
    func captures(alwaysCovering routePattern: PathPattern, named name: String?) -> [String: QuotaPlan.Key]? {
        if let routeName { return name == routeName ? [:] : nil }
        guard let pattern, pattern.optionalExtension == nil else { return nil }
        let own = routePattern.segments
        // A convention route answers its last segment with and without the extension, so that
        // segment is not one fixed text.
        let variableLast = routePattern.optionalExtension == nil ? -1 : own.count - 1
        var found: [String: QuotaPlan.Key] = [:]
        for (i, segment) in pattern.segments.enumerated() {
            if case .wildcard = segment { return found }
            guard i < own.count, own[i] != .wildcard else { return nil }
            switch (segment, own[i]) {
            case let (.literal(text), .literal(ownText)):
                guard i != variableLast, text == ownText else { return nil }
            case let (.parameter(name, _, _), .literal(ownText)) where i != variableLast:
                guard let value = segment.capture(Substring(ownText)) else { return nil }
                found[name] = .constant(value)
            case let (.compound(selector), .literal(ownText)) where i != variableLast:
                guard let values = selector.values(in: Substring(ownText)) else { return nil }
                for (name, value) in zip(selector.names, values) { found[name] = .constant(String(value)) }
            case let (.parameter(name, "", ""), .parameter(ownName, "", "")) where i != variableLast:
                found[name] = .routeParameter(ownName)
            case let (.compound(selector), .compound(own)) where i != variableLast && selector.shape == own.shape:
                // The same text around the same number of parameters: each takes what the route's takes.
                for (name, ownName) in zip(selector.names, own.names) { found[name] = .routeParameter(ownName) }
            case let (.parameter(name, "", ""), _):
                found[name] = .segment(i)
            default:
                return nil
            }
        }
        // Without a trailing `**` the selector takes exactly as many segments as it has.
        return pattern.segments.count == own.count ? found : nil
    }
}

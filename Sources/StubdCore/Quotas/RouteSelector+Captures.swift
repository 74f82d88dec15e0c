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
            case let (.parameter(name, "", ""), .parameter(ownName, "", "")) where i != variableLast:
                found[name] = .routeParameter(ownName)
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

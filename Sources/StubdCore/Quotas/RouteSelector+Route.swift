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

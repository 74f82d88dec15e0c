/// How a request on one route finds its key under one quota, worked out when the catalog is built.
///
/// Matching the quota's selector again on every request (split the path, match the pattern, build a
/// dictionary of captures) cost more than the quota check itself. Most selectors cover their routes
/// entirely (`GET /api/{key}/**` over `GET /api/{key}/conditions.json`), so which segment holds the
/// key is known in advance; only the others are matched per request.
package struct QuotaPlan: Sendable {
    let quota: QuotaDefinition
    let key: Key
    /// The first selector's method, still checked per request: a GET selector over an ANY route
    /// applies to some of its requests only.
    let method: MethodMatch

    enum Key: Sendable {
        /// The same for every request of the route (`global`, or a literal segment).
        case constant(String)
        /// The value of one of the route's own parameters.
        case routeParameter(String)
        /// The request path's n-th segment, whole.
        case segment(Int)
        /// A query item, a header or the client's address, as the quota's `key` says.
        case fromRequest
        /// Whether and how the selector applies depends on the request: match it each time.
        case perRequest
    }

    init(_ quota: QuotaDefinition, routeName: String?, pattern: PathPattern) {
        self.quota = quota
        // The first selector that applies wins (as in `matchedKey`), so only the first may be planned.
        guard let first = quota.selectors.first,
              let captures = first.captures(alwaysCovering: pattern, named: routeName) else {
            key = .perRequest
            method = .any
            return
        }
        method = first.routeName == nil ? first.method : .any
        switch quota.key {
        case .global: key = .constant("")
        case .ip, .query, .header: key = .fromRequest
        case .path(let name): key = captures[name] ?? .routeParameter(name)
        }
    }

    /// The key when it is the same for every request the plan covers.
    var constantKey: String? {
        if case .constant(let value) = key { return value }
        return nil
    }

    /// The key this request is counted under, or nil when no selector of the quota applies to it.
    func key(for request: RequestHead, parameters: [String: String], route: Route) -> String? {
        if case .perRequest = key { return matchedKey(request, parameters, route) }
        guard method.accepts(request.method) else { return matchedKey(request, parameters, route) }
        switch key {
        case .constant(let value): return value
        case .routeParameter(let name): return parameters[name] ?? ""
        case .segment(let index): return PathPattern.segment(index, of: request.normalizedPath).map(String.init) ?? ""
        case .fromRequest: return keyValue(request, captured: [:], parameters)
        case .perRequest: return matchedKey(request, parameters, route)
        }
    }

    /// The general case: the first selector that applies, and the key from what it captured.
    func matchedKey(_ request: RequestHead, _ parameters: [String: String], _ route: Route) -> String? {
        let segments = request.segments
        guard let captured = quota.selectors.lazy.compactMap({ $0.applies(to: request, segments: segments, route: route) }).first else {
            return nil
        }
        return keyValue(request, captured: captured, parameters)
    }

    /// The quota's key for a request its selector applies to, given what the selector captured.
    private func keyValue(_ request: RequestHead, captured: [String: String], _ parameters: [String: String]) -> String {
        quota.key.value(in: request, captured: captured, parameters)
    }
}

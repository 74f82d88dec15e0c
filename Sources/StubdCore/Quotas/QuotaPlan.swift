import Foundation

/// How a request on one route finds its key under one quota, worked out when the catalog is built.
///
/// Matching the quota's selector again on every request (split the path, match the pattern, build a
/// dictionary of captures) cost more than the quota check itself. Most selectors cover their routes
/// entirely (`GET /api/{key}/**` over `GET /api/{key}/conditions.json`), so which segment holds the
/// key is known in advance; only the others are matched per request.
struct QuotaPlan: Sendable {
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

extension QuotaKeySource {
    /// Whose request this is: the key's value in `request`, with path parameters from what a
    /// quota's selector `captured` or, failing that, from the route's own `parameters`.
    func value(in request: RequestHead, captured: [String: String], _ parameters: [String: String]) -> String {
        switch self {
        case .global: return ""
        case .ip: return request.clientAddress
        case .path(let name): return captured[name] ?? parameters[name] ?? ""
        case .query(let name, let ignoringCase): return (request.queryValue(name, ignoringCase: ignoringCase) ?? nil) ?? ""
        case .header(let name): return request.header(name) ?? ""
        }
    }
}

/// A route's only quota when its key is the same for every request the route answers (`global`, or
/// a literal path segment), with a session's cell for that key: the usual shape, charged by
/// `StubEngine.answer` without the general loop over plans, ledgers and cells.
///
/// The references are not retained: the `RouteState` that holds this also holds the ledger and
/// cell, and the route holds the quota; retaining them would make every worker write to the same
/// reference counts on every request. Even `unowned(unsafe)` references are retained around a
/// call, so the ledger and cell are called through `Unmanaged` (see `chargeIfRoom`).
struct SoleQuota: @unchecked Sendable {
    unowned(unsafe) let quota: QuotaDefinition
    private let ledgerReference: Unmanaged<QuotaLedger>
    private let cellReference: Unmanaged<KeyCell>
    let key: String

    /// `QuotaLedger.chargeIfRoom` without retaining the ledger or the cell.
    func chargeIfRoom(at date: Date) -> Standing? {
        ledgerReference._withUnsafeGuaranteedRef { ledger in
            cellReference._withUnsafeGuaranteedRef { cell in ledger.chargeIfRoom(cell, at: date) }
        }
    }

    /// Nil unless the route has exactly one quota plan, with a constant key, whose selector's method
    /// covers every method the route answers. `ledger` and `cell` are the session's for that key.
    init?(_ route: Route, ledger: QuotaLedger, cell: KeyCell) {
        guard route.quotaPlans.count == 1, let plan = route.quotaPlans.first, let key = plan.constantKey else { return nil }
        guard plan.method == .any || plan.method == route.method else { return nil }
        (quota, ledgerReference, cellReference, self.key) = (plan.quota, .passUnretained(ledger), .passUnretained(cell), key)
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

import Foundation

/// Which request value a keyed scenario keeps one state per (`scenarioKey:` on a route): the
/// same spellings a quota's `key:` takes, plus a JSON body field, so `POST /orders/{id}/pay`
/// moves order 17's state and leaves order 18's in `Started`.
package enum ScenarioKey: Sendable, Hashable, CustomStringConvertible {
    /// `{ path: id }`: the route's `{id}`.
    case path(String)
    /// `{ query: order }`; the name lower-case when `queryNames: any-case`.
    case query(String, ignoringCase: Bool)
    /// `{ header: X-Order-Id }`, stored lower-case.
    case header(String)
    /// `{ jsonPath: '$.orderId' }`: a string or number in a JSON body, as templates' `jsonPath` reads it.
    case jsonPath(String)

    /// The key of `request` on a route with `pattern`; nil when the request does not carry it
    /// (the route then steps aside, as for a condition it does not meet).
    func value(in request: RequestHead, pattern: PathPattern) -> String? {
        let found: String?
        switch self {
        case .path(let name): found = pattern.match(request.segments)?[name]
        case .query(let name, let ignoringCase): found = request.queryValue(name, ignoringCase: ignoringCase) ?? nil
        case .header(let name): found = request.header(name)
        case .jsonPath(let expression):
            guard !request.body.isEmpty, let body = try? JSONParser.parse(request.body) else { return nil }
            switch JSONPath.select(expression, in: body) {
            case .string(let text)?: found = text
            case .number(let n)?: found = JSONValue.number(n).serialized
            case .bool(let b)?: found = b ? "true" : "false"
            default: found = nil
            }
        }
        guard let found, !found.isEmpty else { return nil }
        return found
    }

    /// As `stubd routes` and a near miss name it: `path id`, `query order`, `jsonPath $.orderId`.
    package var description: String {
        switch self {
        case .path(let p): return "path \(p)"
        case .query(let q, _): return "query \(q)"
        case .header(let h): return "header \(h)"
        case .jsonPath(let e): return "jsonPath \(e)"
        }
    }
}

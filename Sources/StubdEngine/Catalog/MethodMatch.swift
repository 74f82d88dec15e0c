package import HTTPTypes

/// Which methods a route answers. `GET` routes answer `HEAD` too.
package enum MethodMatch: Sendable, Hashable, CustomStringConvertible {
    case any
    case only(HTTPRequest.Method)

    package func accepts(_ method: HTTPRequest.Method) -> Bool {
        switch self {
        case .any: return true
        case .only(let m): return m == method || (m == .get && method == .head)
        }
    }

    package var description: String {
        switch self {
        case .any: return "ANY"
        case .only(let m): return m.rawValue
        }
    }

    var allowed: [HTTPRequest.Method] {
        switch self {
        case .any: return []
        case .only(.get): return [.get, .head]
        case .only(let m): return [m]
        }
    }
}

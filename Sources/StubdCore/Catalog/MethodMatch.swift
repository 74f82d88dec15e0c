/// Which methods a route answers. `GET` routes answer `HEAD` too.
package enum MethodMatch: Sendable, Hashable, CustomStringConvertible {
    case any
    case only(String)

    package func accepts(_ method: String) -> Bool {
        switch self {
        case .any: return true
        case .only(let m): return m == method || (m == "GET" && method == "HEAD")
        }
    }

    package var description: String {
        switch self {
        case .any: return "ANY"
        case .only(let m): return m
        }
    }

    var allowed: [String] {
        switch self {
        case .any: return []
        case .only("GET"): return ["GET", "HEAD"]
        case .only(let m): return [m]
        }
    }
}

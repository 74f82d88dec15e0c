/// Whose requests a quota counts together.
package enum QuotaKeySource: Sendable, Hashable, CustomStringConvertible {
    case global
    case ip
    case path(String)
    /// `ignoringCase` when the manifest's `defaults.queryNames` is `any-case`: the name is then lower-case.
    case query(String, ignoringCase: Bool)
    case header(String)

    package var description: String {
        switch self {
        case .global: return "global"
        case .ip: return "ip"
        case .path(let p): return "path \(p)"
        case .query(let q, let ignoringCase): return "query \(q)" + (ignoringCase ? " (any case)" : "")
        case .header(let h): return "header \(h)"
        }
    }
}

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

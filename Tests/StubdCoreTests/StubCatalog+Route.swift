import Foundation
@testable import StubdCore

extension StubCatalog {
    /// The route answering `method path?query`, or nil.
    func route(_ method: String, _ target: String, headers: [(name: String, value: String)] = [], body: String = "") -> Route? {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? parts[1].split(separator: "&").map { item -> (name: String, value: String?) in
            let kv = item.split(separator: "=", maxSplits: 1)
            return (String(kv[0]), kv.count > 1 ? String(kv[1]) : nil)
        } : []
        let request = RequestHead(method: method, path: String(parts[0]), query: query, headers: headers, body: Data(body.utf8))
        if case .matched(let route, _) = match(request) { return route }
        return nil
    }
}

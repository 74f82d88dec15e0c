import HTTPTypes
import Foundation
@testable import StubdCore
@testable import StubdEngine

extension StubCatalog {
    /// The route answering `method path?query`, or nil.
    func route(_ method: String, _ target: String, headers: HTTPFields = [:], body: String = "") -> Route? {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? queryItems(parsing: parts[1]) : []
        let request = RequestHead(method: HTTPRequest.Method(method)!, path: String(parts[0]), query: query, headers: headers, body: Data(body.utf8))
        if case .matched(let route, _) = match(request) { return route }
        return nil
    }
}

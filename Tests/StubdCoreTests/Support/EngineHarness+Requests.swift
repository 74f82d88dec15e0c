import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdProtocol

/// A request as a server test sent it through URLSession (`get(server.baseURL, target, headers:)`,
/// `http(url, method:body:headers:)`), routed as the libmicrohttpd front routes it
/// (`IncomingRequest.read`): `/__s/ID/…`, `X-Stubd-Session` and, for an admin call, `?session=` name
/// the session; `/__stubd/…` is the admin API; anything else the stubs, held to the specs. So a test
/// moved off the socket sends what it sent and reads the same status, headers and body.
extension EngineHarness {
    /// `GET target`.
    func get(_ target: String, headers: [String: String] = [:]) -> EngineAnswer {
        http(target, headers: headers)
    }

    /// `target`: a path with an optional `?query`, percent-encoded as on the wire; libmicrohttpd
    /// hands the front the query's names and values decoded (`+` a space), and so does this.
    func http(_ target: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:]) -> EngineAnswer {
        let mark = target.firstIndex(of: "?")
        let path = String(target[..<(mark ?? target.endIndex)])
        let query = mark.map { Self.decodedQuery(target[target.index(after: $0)...]) } ?? []
        // Sorted: a dictionary's order changes from run to run, and a repeated test should send the same head.
        let fields = HTTPFields(headers.sorted { $0.key < $1.key }.map { HTTPField(name: HTTPField.Name($0.key)!, value: $0.value) })
        let method = HTTPRequest.Method(method)!
        let bytes = Data((body ?? "").utf8)
        let resolved = RequestTarget.resolve(path: path, sessionHeader: fields[.stubdSession],
                                             sessionQuery: query.first { $0.name == "session" }?.value ?? nil)
        if let call = resolved.adminCall {
            if let refusal = access?.refusal(method: method, endpoint: AdminEndpoint(method: method, call: call), call: call, headers: fields) {
                return EngineAnswer(status: refusal.status.code, headers: refusal.headers, body: refusal.body)
            }
            return admin(method, call: call, query: query, body: bytes, session: resolved.session)
        }
        return answer(RequestHead(method: method, path: resolved.path, query: query, headers: fields, body: bytes), session: resolved.session)
    }

    /// `a=1&b&c=%20d+e` as libmicrohttpd reads it: `b` a flag, `c` the value " d e".
    static func decodedQuery(_ text: Substring) -> [QueryItem] {
        func decoded(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return text.split(separator: "&").map { item in
            let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return QueryItem(name: decoded(kv[0]), value: kv.count > 1 ? decoded(kv[1]) : nil)
        }
    }
}

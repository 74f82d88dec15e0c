import Foundation
import HTTPTypes
import StubdEngine

/// One saved example answer of a Postman request, translated into a DeclaredStub: the example's
/// own request (`originalRequest`, else the item's), its status, headers and body. The URL's host
/// part (`{{baseUrl}}`, `https://api.example.com`) is dropped, keeping the path a base URL variable
/// holds (`{{baseUrl}}` = `https://api.example.com/v2` → `/v2/...`); `:id` and `{{id}}` path
/// segments become `{id}`; a query value holding `{{…}}` becomes `"*"` (any value).
struct PostmanExample {
    let request: PostmanCollection.Request
    /// Index in the item's `response[]`.
    let index: Int
    let json: [String: JSONValue]
    let variables: [String: String]

    var pointer: String { "\(request.pointer)/response/\(index)" }

    func translate(file: String) throws(ImportError) -> ImportCandidate {
        let at = "\(file):\(pointer)"
        let sent: JSONValue? = json["originalRequest"] ?? request.item["request"]
        var methodText = "GET"
        var url: JSONValue?
        switch sent {
        case .string(let raw)?: url = .string(raw)
        case .object(let r)?:
            if case .string(let m)? = r["method"] { methodText = m.uppercased() }
            url = r["url"]
        default: break
        }
        guard let method = HTTPRequest.Method(methodText) else { throw ImportError("\(at)/originalRequest/method: not an HTTP method") }
        let parts = try PostmanExample.split(url, at: "\(at)/originalRequest/url")
        let hostVariable = parts.hostVariable
        var segments = parts.segments, query = parts.query
        var names: [String] = []
        var leftOut: String?
        // A base URL variable's own path (`{{baseUrl}}` = `https://host/v2`) leads the route's; its host is dropped.
        if let hostVariable, let value = variables[hostVariable], let components = URLComponents(string: value), components.host != nil {
            segments = components.path.split(separator: "/").map(String.init) + segments
        }
        var path: [String] = []
        for segment in segments {
            var name: String?
            if segment.hasPrefix(":"), segment.count > 1 { name = String(segment.dropFirst()) }
            else if segment.hasPrefix("{{"), segment.hasSuffix("}}"), segment.count > 4 { name = String(segment.dropFirst(2).dropLast(2)) }
            else if segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2, !segment.dropFirst().contains("{") { name = String(segment.dropFirst().dropLast()) }
            if let raw = name {
                // `{{new-quote-id}}` → `{new-quote-id}`; a name stubd cannot use as a parameter → `{p1}`.
                var chosen = SecretNames.isPlainIdentifier(raw) ? raw : "p\(names.count + 1)"
                while names.contains(chosen) { chosen += "_" }
                names.append(chosen)
                path.append("{\(chosen)}")
                continue
            }
            if segment.contains("{{") {
                leftOut = "\(at)/originalRequest/url: its path segment '\(segment.prefix(80))' holds a {{variable}} inside other text, which a stubd path cannot say"
            }
            guard let decoded = segment.removingPercentEncoding, decoded != "..", decoded != ".", !decoded.contains("/") else {
                throw ImportError("\(at)/originalRequest/url: the path segment '\(segment.prefix(80))' is '..', '.' or holds '/', which no client sends")
            }
            if decoded == "**" || decoded.contains("{") || decoded.contains("}") {
                leftOut = "\(at)/originalRequest/url: its path segment '\(decoded.prefix(80))' holds '{', '}' or '**', which a stubd path reads as a pattern"
            }
            path.append(decoded)
        }
        while path.last == "" { path.removeLast() }
        let routePath = "/" + path.filter { !$0.isEmpty }.joined(separator: "/")
        query = query.map { QueryItem(name: $0.name, value: ($0.value ?? "").contains("{{") ? "*" : $0.value) }

        // The answer.
        var status = 200
        switch json["code"] {
        case .number(let n)? where n == n.rounded() && (100...599).contains(Int(n)): status = Int(n)
        case nil, .null?: break
        default: throw ImportError("\(at)/code: not an HTTP status")
        }
        var headers = HTTPFields()
        if case .array(let list)? = json["header"] {
            for (i, entry) in list.enumerated() {
                guard case .object(let h) = entry, case .string(let key)? = h["key"] else { throw ImportError("\(at)/header/\(i): a header needs a key") }
                if h["disabled"] == .bool(true) { continue }
                // The server frames the answer; Postman keeps bodies decoded.
                if ["content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive"].contains(key.lowercased()) { continue }
                let value: String = if case .string(let v)? = h["value"] { v } else { "" }
                guard let name = HTTPField.Name(key), HTTPField.isValidValue(value) else { throw ImportError("\(at)/header/\(i): not a header") }
                headers.append(HTTPField(name: name, value: value))
            }
        }
        var body = Data()
        switch json["body"] {
        case .string(let text)?: body = Data(text.utf8)
        case nil, .null?: break
        default: throw ImportError("\(at)/body: must be a string (Postman saves the answer's text)")
        }
        let title: String = if case .string(let n)? = json["name"] { n } else { "example \(index + 1)" }
        let target = routePath + (query.isEmpty ? "" : "?" + query.map { $0.name + "=…" }.joined(separator: "&"))
        var candidate = ImportCandidate(source: "\(request.names.joined(separator: " / ")) ▸ \(title)", method: methodText, target: target, status: status)
        if let leftOut { candidate.leftOut = leftOut; return candidate }
        let samplePath = routePath.split(separator: "/", omittingEmptySubsequences: false).map { $0.hasPrefix("{") ? "x" : String($0) }.joined(separator: "/")
        let sample = RequestHead(method: method, path: samplePath.isEmpty ? "/" : samplePath,
                                 query: query.map { QueryItem(name: $0.name, value: $0.value == "*" ? "x" : $0.value) })
        var stub = DeclaredStub(method: method, path: routePath, parameterNames: names, query: query, status: HTTPResponse.Status(code: status),
                                responseHeaders: headers, responseBody: body, sample: sample)
        // The example's name ("Found", "Not found") names the route, as Postman names the example.
        if case .string(let name)? = json["name"] { stub.name = name }
        candidate.stub = stub
        candidate.identity = ImportCandidate.identity(of: stub)
        return candidate
    }

    /// The URL's host variable (`baseUrl` of `{{baseUrl}}`, nil for a literal host), path segments
    /// and query, from Postman's object form or its raw string.
    static func split(_ url: JSONValue?, at pointer: String) throws(ImportError) -> (hostVariable: String?, segments: [String], query: [QueryItem]) {
        func variable(_ text: Substring) -> String? {
            text.hasPrefix("{{") && text.hasSuffix("}}") && text.count > 4 ? String(text.dropFirst(2).dropLast(2)) : nil
        }
        switch url {
        case .object(let u)?:
            var host: String?
            switch u["host"] {
            case .array(let parts)?: if parts.count == 1, case .string(let h) = parts[0] { host = variable(Substring(h)) }
            case .string(let h)?: host = variable(Substring(h))
            default: break
            }
            var segments: [String] = []
            switch u["path"] {
            case .array(let parts)?: segments = parts.compactMap { if case .string(let s) = $0 { s } else { nil } }
            case .string(let p)?: segments = p.split(separator: "/").map(String.init)
            default:
                if case .string(let raw)? = u["raw"] { return try split(.string(raw), at: pointer) }
            }
            var query: [QueryItem] = []
            if case .array(let items)? = u["query"] {
                for case .object(let q) in items where q["disabled"] != .bool(true) {
                    guard case .string(let key)? = q["key"] else { continue }
                    let value: String? = if case .string(let v)? = q["value"] { v } else { nil }
                    query.append(QueryItem(name: key, value: value ?? ""))
                }
            } else if case .string(let raw)? = u["raw"] {
                query = try split(.string(raw), at: pointer).query
            }
            return (host, segments.filter { !$0.isEmpty }, query)
        case .string(let raw)?:
            var rest = Substring(raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
            // The host (`{{baseUrl}}`, `api.example.com:8443`): everything up to the first '/' or '?'.
            let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            let parts = rest[pathStart...].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let segments = (parts.first ?? "").split(separator: "/").map(String.init)
            return (variable(rest[..<pathStart]), segments, parts.count > 1 ? WireMockMapping.queryItems(parts[1]) : [])
        case nil, .null?:
            throw ImportError("\(pointer): missing (an example needs the request's URL)")
        default:
            throw ImportError("\(pointer): must be a URL string or Postman's URL object")
        }
    }
}

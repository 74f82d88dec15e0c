package import Foundation
package import HTTPTypes

/// What the core needs to know about a request; the transport fills it in.
package struct RequestHead: Sendable {
    package var method: HTTPRequest.Method
    /// Percent-decoded, without the query and without a `/__s/{id}` session prefix.
    package var path: String
    /// In the order sent; a name may repeat (`?id=1&id=2`).
    package var query: [QueryItem]
    /// As sent: names keep their spelling (`rawName`) for the journal and the real API, and compare
    /// in any case.
    package var headers: HTTPFields
    package var body: Data
    package var clientAddress: String
    /// Repeated and trailing slashes collapsed, so `/a//b/` and `/a/b` are one path. Computed once.
    package let normalizedPath: String
    /// The request read as GraphQL, set by the engine when a GraphQL route listens on its path
    /// (read once, whatever the number of operations' routes); nil everywhere else.
    package var graphQL: GraphQLRequest?

    package init(method: HTTPRequest.Method, path: String, query: [QueryItem] = [],
                headers: HTTPFields = HTTPFields(), body: Data = Data(), clientAddress: String = "127.0.0.1") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
        self.normalizedPath = RequestHead.normalize(path)
    }

    /// Most paths are already normal; only those with `//` or a trailing `/` are rebuilt.
    static func normalize(_ path: String) -> String {
        var bytes = path
        let needsWork = bytes.withUTF8 { utf8 in
            var previousSlash = false
            for byte in utf8 {
                let slash = byte == UInt8(ascii: "/")
                if slash && previousSlash { return true }
                previousSlash = slash
            }
            return previousSlash && utf8.count > 1
        }
        guard needsWork || path.isEmpty else { return path }
        let segments = PathPattern.split(path)
        return segments.isEmpty ? "/" : "/" + segments.joined(separator: "/")
    }

    /// The first value sent under `name` (any case), as matching has always read a header.
    package func header(_ name: HTTPField.Name) -> String? { headers.firstValue(of: name) }

    /// The same, by a lower-case name from a manifest or a template (`request.headers.x-api-key`).
    package func header(_ lowercasedName: String) -> String? { headers.firstValue(ofCanonicalName: lowercasedName) }

    /// `.some(nil)` for a flag without a value (`?debug`).
    package func queryValue(_ name: String) -> String?? {
        guard let item = query.first(where: { $0.name == name }) else { return nil }
        return .some(item.value)
    }

    /// `queryValue`, with names compared in any case: `lowercasedName` must be lower-case.
    package func queryValue(_ lowercasedName: String, ignoringCase: Bool) -> String?? {
        guard ignoringCase else { return queryValue(lowercasedName) }
        guard let item = query.first(where: {
            $0.name.utf8.count == lowercasedName.utf8.count && $0.name.lowercased() == lowercasedName
        }) else { return nil }
        return .some(item.value)
    }

    /// `/api/KEY/x.json` → `["api", "KEY", "x.json"]`
    package var segments: [Substring] { PathPattern.split(normalizedPath) }

    /// `GET /api/KEY/x.json`: how hits of a concrete path are counted.
    package var concretePath: String { "\(method) \(normalizedPath)" }
}

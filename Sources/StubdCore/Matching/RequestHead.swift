import Foundation

/// What the core needs to know about a request; the transport fills it in.
public struct RequestHead: Sendable {
    public var method: String
    /// Percent-decoded, without the query and without a `/__s/{id}` session prefix.
    public var path: String
    public var query: [(name: String, value: String?)]
    public var headers: [(name: String, value: String)]
    public var body: Data
    public var clientAddress: String

    public init(method: String, path: String, query: [(name: String, value: String?)] = [],
                headers: [(name: String, value: String)] = [], body: Data = Data(), clientAddress: String = "127.0.0.1") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// Case-insensitive, as HTTP header names are. `name` must be lower-case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    /// `.some(nil)` for a flag without a value (`?debug`).
    public func queryValue(_ name: String) -> String?? {
        guard let item = query.first(where: { $0.name == name }) else { return nil }
        return .some(item.value)
    }

    /// `/api/KEY/x.json` → `["api", "KEY", "x.json"]`
    public var segments: [Substring] { PathPattern.split(path) }

    /// `GET /api/KEY/x.json`: how hits of a concrete path are counted.
    public var concretePath: String { "\(method) \(normalizedPath)" }

    /// Collapses repeated and trailing slashes, so `/a//b/` and `/a/b` are one path.
    public var normalizedPath: String {
        let segs = segments
        return segs.isEmpty ? "/" : "/" + segs.joined(separator: "/")
    }
}

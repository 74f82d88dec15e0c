import Foundation

/// The path a spec's `servers` put before every operation's path: `/v1` for
/// `servers: [{url: https://api.example.com/v1}]`, for `url: /v1`, for Swagger 2.0's `basePath: /v1`
/// (converted to `servers`), and for `{scheme}://host/{basePath}` with its variables' defaults.
///
/// A client generated from the spec sends `/v1/pets/7` for the operation `/pets/{id}`; a stub folder
/// recorded or imported from it may hold either spelling. The contract looks an operation up with
/// the prefix taken off, and `serve --spec` answers a request under the prefix with the route
/// written without it, so both spellings mean the same operation everywhere.
package struct ServerPathPrefix: Sendable, Hashable {
    /// Non-empty: a server at the host's root (`https://api.example.com`) has no prefix.
    package let segments: [String]

    /// The distinct prefixes of the document's top-level `servers`, longest first (a request under
    /// `/v1/beta` is taken off `/v1/beta` before `/v1`). Path items' and operations' own `servers`
    /// are not read.
    package static func all(in document: JSONValue) -> [ServerPathPrefix] {
        guard case .object(let root) = document, case .array(let servers)? = root["servers"] else { return [] }
        var found: [ServerPathPrefix] = []
        for server in servers {
            guard case .object(let members) = server, case .string(let url)? = members["url"] else { continue }
            var defaults: [String: String] = [:]
            if case .object(let variables)? = members["variables"] {
                for (name, variable) in variables {
                    if case .object(let fields) = variable, case .string(let value)? = fields["default"] { defaults[name] = value }
                }
            }
            if let prefix = ServerPathPrefix(url: url, defaults: defaults), !found.contains(prefix) { found.append(prefix) }
        }
        return found.sorted { $0.segments.count > $1.segments.count }
    }

    /// The path of a server URL, absolute (`https://host/v1`) or relative (`/v1`, `v1`), with each
    /// `{variable}` replaced by its default; nil when it has none.
    init?(url: String, defaults: [String: String]) {
        var expanded = ""
        var rest = Substring(url)
        while let open = rest.firstIndex(of: "{") {
            expanded += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { expanded += rest[open...]; rest = ""; break }
            // A variable without a default stands for one unknown segment: nothing stubd can strip.
            guard let value = defaults[String(rest[rest.index(after: open)..<close])] else { return nil }
            expanded += value
            rest = rest[rest.index(after: close)...]
        }
        expanded += rest
        var path = Substring(expanded)
        if let scheme = path.range(of: "://") {
            let afterAuthority = path[scheme.upperBound...]
            path = afterAuthority.firstIndex(of: "/").map { afterAuthority[$0...] } ?? ""
        } else if path.hasPrefix("//") {
            let afterAuthority = path.dropFirst(2)
            path = afterAuthority.firstIndex(of: "/").map { afterAuthority[$0...] } ?? ""
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        let segments = path.split(separator: "/").map(String.init)
        guard !segments.isEmpty else { return nil }
        self.segments = segments
    }

    /// `path` without this prefix, when it starts with it (segment by segment); nil otherwise.
    package func strip(_ path: [Substring]) -> [Substring]? {
        guard path.count > segments.count else { return nil }
        for (index, segment) in segments.enumerated() where path[index] != segment { return nil }
        return Array(path.dropFirst(segments.count))
    }

    /// `/v1`, for messages and the documentation's examples.
    package var path: String { "/" + segments.joined(separator: "/") }
}

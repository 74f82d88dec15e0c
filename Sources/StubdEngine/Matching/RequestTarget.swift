/// Where a request goes: the admin API, or the stubs, within a session.
package struct RequestTarget: Sendable, Equatable {
    package let session: String
    /// The path with any `/__s/{id}` prefix removed.
    package let path: String
    /// The admin call (`hits/wait`) when the path is under `/__stubd/`.
    package let adminCall: String?

    /// `/__s/t1/api/x` → session t1, path /api/x. A session header counts when there is no prefix,
    /// and `sessionQuery` (`?session=`) only for an admin call with neither.
    package static func resolve(path: String, sessionHeader: String?, sessionQuery: @autoclosure () -> String?) -> RequestTarget {
        var session = sessionHeader ?? ""
        var rest = path
        // Byte comparisons: String.hasPrefix compares by Unicode canonical equivalence, which showed
        // in the request path's profile, and a path's prefix is bytes.
        // Every admin or session path starts "/_": one byte decides for the rest (a generic
        // `starts(with:)` measured ~130 instructions a request).
        let underscored = path.utf8.count > 1 && path.utf8[path.utf8.index(after: path.utf8.startIndex)] == UInt8(ascii: "_")
        if underscored, path.utf8.starts(with: "/__s/".utf8) {
            let afterPrefix = path.dropFirst(5)
            let id = afterPrefix.prefix { $0 != "/" }
            session = String(id)
            rest = String(afterPrefix.dropFirst(id.count))
            if rest.isEmpty { rest = "/" }
        }
        if underscored, rest.utf8.starts(with: "/__stubd".utf8), rest.utf8.count == 8 || rest.utf8.dropFirst(8).first == UInt8(ascii: "/") {
            // Looked up only here: a stub request does not pay for a query scan it never uses.
            if session.isEmpty, let q = sessionQuery() { session = q }
            let call = rest.dropFirst("/__stubd".count).drop { $0 == "/" }
            return RequestTarget(session: session, path: rest, adminCall: String(call))
        }
        return RequestTarget(session: session, path: rest, adminCall: nil)
    }

    /// Session ids appear in URLs and logs: keep them plain.
    package static func isValidSession(_ id: String) -> Bool {
        // Over the UTF-8 bytes: the same verdict (a byte past ASCII fails either way) without the
        // grapheme breaking that `count` and `allSatisfy` over Characters did on every request.
        id.utf8.count <= 64 && id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): return true
            default: return false
            }
        }
    }
}

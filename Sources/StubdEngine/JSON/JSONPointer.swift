import Foundation

/// RFC 6901 pointers, both as instance paths (`/main/temp`) and as `#/...` fragments in `$ref`.
package enum JSONPointer {
    /// One reference token, escaped (`a/b` → `a~1b`, `m~n` → `m~0n`).
    package static func escape(_ token: String) -> String {
        if !token.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The tokens of a `#/a/b` fragment, percent- and tilde-decoded; nil when it is not a `#` pointer.
    package static func tokens(ofFragment ref: String) -> [String]? {
        guard ref.hasPrefix("#") else { return nil }
        let pointer = String(ref.dropFirst()).removingPercentEncoding ?? String(ref.dropFirst())
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The value at `tokens` in `root`, or nil when a token names nothing there.
    package static func resolve(_ tokens: [String], in root: JSONValue) -> JSONValue? {
        var current = root
        for token in tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let items):
                // RFC 6901: a decimal index with no leading zeros.
                guard let index = Int(token), String(index) == token, items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}

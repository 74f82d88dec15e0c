import Foundation
import StubdProtocol

/// A canned answer's entity tag: a strong validator (RFC 9110 §8.8.3) made from the bytes it sends,
/// so it stays the same while the stub's content does, across reloads and restarts, and changes
/// when the content does. FNV-1a over the body and its content type: not a secret, only a
/// fingerprint a client's cache sends back (`If-None-Match`, `If-Range`).
package enum EntityTag {
    /// `"9f0a…"`: 16 hex digits in quotes, as an `ETag` header carries it.
    static func of(body: Data, contentType: String?) -> String {
        var hash = FNV1a(body)
        // The same bytes as another type are another representation (`content:` alternatives).
        hash.add([0])
        hash.add((contentType ?? "").utf8)
        return "\"" + hash.hex + "\""
    }

    /// Whether an `If-None-Match` value names `tag`: `*`, or a comma-separated list compared weakly
    /// (RFC 9110 §13.1.2: `W/"x"` matches `"x"`).
    static func listMatches(_ list: Substring, _ tag: String) -> Bool {
        let bare = opaque(Substring(tag))
        for item in list.split(separator: ",") {
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            if trimmed == "*" { return true }
            if opaque(Substring(trimmed)) == bare { return true }
        }
        return false
    }

    /// Whether `If-Range`'s entity tag is `tag`, compared strongly (§13.1.5: a weak tag never matches).
    static func strongMatch(_ value: Substring, _ tag: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return !trimmed.hasPrefix("W/") && !tag.hasPrefix("W/") && trimmed == tag
    }

    /// The quoted part of a tag, without a weakness prefix.
    private static func opaque(_ tag: Substring) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}

import Foundation

/// The ways one secret value is written where it shows: as it is, inside a JSON string as the
/// common encoders escape it, and percent-encoded in a URL or a form. A masker that looked for the
/// value alone left `pass\/word9` (Apple's JSONEncoder escapes `/`), `pa\"ss42x` and
/// `caf\u00e9pass1` in a HAR export and the journal.
package enum SecretSpellings {
    /// `value` first, then each other spelling once (most values are letters and digits: one spelling).
    static func of(_ value: String) -> [String] {
        var out = [value]
        func add(_ spelling: String) { if !spelling.isEmpty, !out.contains(spelling) { out.append(spelling) } }
        for slash in [false, true] {
            for hex in [HexCase?.none, .lower, .upper] { add(jsonEscaped(value, escapingSlash: slash, nonASCII: hex)) }
        }
        add(value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
        // A form (`application/x-www-form-urlencoded`) writes a space as `+`.
        add(value.addingPercentEncoding(withAllowedCharacters: unreservedAndSpace)?.replacingOccurrences(of: " ", with: "+") ?? "")
        // URLComponents leaves `/`, `:`, `@` and the like as they are in a query.
        add(value.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? "")
        return out
    }

    enum HexCase { case lower, upper }

    /// The content of a JSON string holding `value`: `"` and `\` escaped, control characters as
    /// JSON writes them, `/` as `\/` when `escapingSlash`, and every non-ASCII character as
    /// `\uXXXX` (a pair of them beyond U+FFFF) when `nonASCII` says in which case.
    static func jsonEscaped(_ value: String, escapingSlash: Bool, nonASCII: HexCase?) -> String {
        var out = ""
        func hex(_ unit: UInt16) {
            let digits = String(unit, radix: 16, uppercase: nonASCII == .upper)
            out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += escapingSlash ? "\\/" : "/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20: hex(UInt16(scalar.value))
            case _ where scalar.value > 0x7F && nonASCII != nil:
                for unit in String(scalar).utf16 { hex(unit) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// RFC 3986's unreserved characters, in ASCII only (`CharacterSet.alphanumerics` holds `é`).
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    private static let unreservedAndSpace = unreserved.union(CharacterSet(charactersIn: " "))
    private static let queryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))
}

import Foundation

/// Masking that reads the JSON in a text (a body, a WebSocket message, a miss quoting a body) rather
/// than its bytes alone. Two things a byte search cannot see:
/// - a value spelt with escapes no list of spellings holds (`\u0070assword`, or a JSON string that
///   itself holds JSON, as `{{request.body}}` echoed into a string field writes it): each string
///   that has an escape is decoded, masked, and written again only when that changed it;
/// - a value too short to be searched for everywhere (`"password": "x9"`): the value of a field whose
///   name is a secret's (`SecretNames.isSecretParameter`: `password`, `accessToken`, `refresh_token`…)
///   is always replaced, whatever its length.
/// Not a parser: it only needs to tell strings apart (a `"` to the next unescaped `"`), so text that
/// is not JSON, or is cut, is read as far as it goes and left as it is elsewhere. One pass, no
/// recursion past `maxDepth`, so hostile input costs time in proportion to its length.
package enum JSONTextMasking {
    /// What a secret field's value becomes.
    static let placeholder = "<redacted>"
    /// JSON inside a string inside a string is decoded; deeper is left to the byte search.
    static let maxDepth = 2

    /// `bytes` with each secret field's value replaced and each escaped string masked by `values`
    /// after decoding; nil when nothing changed. `values` masks a decoded string's content.
    static func masked(_ bytes: [UInt8], depth: Int = 0, values: (String) -> String) -> [UInt8]? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var out: [UInt8] = []
        var copied = 0
        var i = 0
        // Set after a secret field's name and its `:`, until its value is seen.
        var secretValueNext = false
        func replace(_ range: Range<Int>, with replacement: [UInt8]) {
            if out.isEmpty { out.reserveCapacity(bytes.count + 64) }
            out.append(contentsOf: bytes[copied..<range.lowerBound])
            out.append(contentsOf: replacement)
            copied = range.upperBound
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte == quote {
                // The string's end: the next quote not escaped. None: the text was cut; left as it is.
                var end = i + 1, escaped = false
                while end < bytes.count, bytes[end] != quote {
                    if bytes[end] == backslash { escaped = true; end += 1 }
                    end += 1
                }
                guard end < bytes.count else { break }
                let token = i..<(end + 1)
                let content = bytes[(i + 1)..<end]
                var next = end + 1
                while next < bytes.count, isSpace(bytes[next]) { next += 1 }
                let isName = next < bytes.count && bytes[next] == UInt8(ascii: ":")
                if secretValueNext, !isName {
                    let text = decoded(content, escaped: escaped)
                    // A value already masked by value keeps its placeholder (`<key>` says which secret).
                    if !(text.hasPrefix("<") && text.hasSuffix(">")) { replace(token, with: Array("\"\(placeholder)\"".utf8)) }
                } else if escaped, !isName {
                    // Unescaped, the string was searched as it is; escaped, its content is what a reader sees.
                    let text = decoded(content, escaped: true)
                    var masked = values(text)
                    if depth < maxDepth, let inner = JSONTextMasking.masked(Array(masked.utf8), depth: depth + 1, values: values) {
                        masked = String(decoding: inner, as: UTF8.self)
                    }
                    if masked != text {
                        var written = "\""
                        JSONValue.writeEscaped(masked, to: &written)
                        replace(token, with: Array((written + "\"").utf8))
                    }
                }
                secretValueNext = isName && SecretNames.isSecretParameter(decoded(content, escaped: escaped))
                i = isName ? next + 1 : end + 1
                continue
            }
            if secretValueNext, !isSpace(byte) {
                secretValueNext = false
                // A number under a secret's name (`"pin": 4821`): its digits are the secret.
                if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    var end = i + 1
                    while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
                    replace(i..<end, with: Array("\"\(placeholder)\"".utf8))
                    i = end
                    continue
                }
            }
            i += 1
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// A JSON string's content as text: escapes decoded when it has any (a malformed one as it stands).
    private static func decoded(_ content: ArraySlice<UInt8>, escaped: Bool) -> String {
        guard escaped else { return String(decoding: content, as: UTF8.self) }
        if case .string(let text)? = try? JSONParser.parse(Data([UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")])) { return text }
        return String(decoding: content, as: UTF8.self)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
}

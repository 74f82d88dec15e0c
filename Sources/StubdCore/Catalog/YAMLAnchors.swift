/// Finds the first YAML anchor (`&name`) or alias (`*name`) in a document before it is parsed.
///
/// stubd refuses both in manifests and runtime stubs: an alias copies the node it names, so a few
/// hundred bytes of nested aliases (the "billion laughs" document) expand to gigabytes, and Yams
/// hashes an alias used as a mapping key in full while composing, before we could count anything.
/// A lexical scan is enough to find them: an indicator counts only where a YAML node can start,
/// outside quotes, comments and block scalars, so `"*"`, `/api/**` and `a & b` are left alone.
enum YAMLAnchors {
    struct Found: Equatable {
        let line: Int
        let column: Int
        let isAlias: Bool
        let name: String
    }

    static func first(in text: String) -> Found? {
        let bytes = Array(text.utf8)
        var i = 0
        var line = 1
        var lineStart = 0
        /// Inside a block scalar (`|` or `>`): lines indented deeper than this are text.
        var blockParentIndent: Int?
        var previous: UInt8 = 0x0A

        func isNodeStart(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x0A, 0x20, 0x09, UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":"): return true
            default: return false
            }
        }
        func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"),
                 UInt8(ascii: "{"), UInt8(ascii: "}"): return false
            default: return true
            }
        }

        while i < bytes.count {
            if i == lineStart, let parent = blockParentIndent {
                var indent = 0
                while i + indent < bytes.count, bytes[i + indent] == 0x20 { indent += 1 }
                let blank = i + indent >= bytes.count || bytes[i + indent] == 0x0A || bytes[i + indent] == 0x0D
                if blank || indent > parent {
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                    if i < bytes.count { i += 1; line += 1; lineStart = i }
                    continue
                }
                blockParentIndent = nil
            }
            let byte = bytes[i]
            switch byte {
            case 0x0A:
                line += 1
                lineStart = i + 1
                previous = byte
                i += 1
                continue
            case UInt8(ascii: "#") where previous == 0x20 || previous == 0x09 || previous == 0x0A:
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard isNodeStart(previous) else { break }
                let quote = byte
                i += 1
                while i < bytes.count {
                    let b = bytes[i]
                    if b == 0x0A { line += 1; lineStart = i + 1 }
                    if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\") { i += 2; continue }
                    if b == quote {
                        // '' inside single quotes is an escaped quote, not the end.
                        if quote == UInt8(ascii: "'"), i + 1 < bytes.count, bytes[i + 1] == quote { i += 2; continue }
                        break
                    }
                    i += 1
                }
                previous = quote
                i += 1
                continue
            case UInt8(ascii: "|"), UInt8(ascii: ">"):
                guard isNodeStart(previous) else { break }
                // A block scalar header runs to the end of the line (modifiers, then maybe a comment).
                var j = i + 1
                while j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+")
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) { j += 1 }
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                if j >= bytes.count || bytes[j] == 0x0A || bytes[j] == 0x0D || bytes[j] == UInt8(ascii: "#") {
                    var indent = 0
                    while lineStart + indent < bytes.count, bytes[lineStart + indent] == 0x20 { indent += 1 }
                    blockParentIndent = indent
                }
            case UInt8(ascii: "&"), UInt8(ascii: "*"):
                guard isNodeStart(previous), i + 1 < bytes.count, isNameByte(bytes[i + 1]) else { break }
                var end = i + 1
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
                return Found(line: line, column: column, isAlias: byte == UInt8(ascii: "*"),
                             name: String(decoding: bytes[(i + 1)..<end], as: UTF8.self))
            default:
                break
            }
            previous = byte
            i += 1
        }
        return nil
    }
}

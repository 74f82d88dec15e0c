/// Finds the first YAML anchor (`&name`) or alias (`*name`) in a document before it is parsed.
///
/// stubd refuses both in manifests and runtime stubs: an alias copies the node it names, so a few
/// hundred bytes of nested aliases (the "billion laughs" document) expand to gigabytes, and Yams
/// hashes an alias used as a mapping key in full while composing, before we could count anything.
///
/// The scan reads the text the way YAML does, as far as telling where a node starts: an indicator
/// counts only as a node's first character (at the start of a line's content, after `- `, `? `,
/// `: `, a tag, or `[`, `{`, `,` inside a flow collection), never inside a plain scalar, its
/// continuation lines, a quoted scalar, a block scalar or a comment. Vendors' specs write
/// `Enable *One click sign-in*` and `**Note**` in plain descriptions; a scan that took every `*`
/// after a space for an alias refused them. Where the scan is unsure it errs towards finding one:
/// a missed alias reaches Yams, a false one only asks the user to quote a value.
package enum YAMLAnchors {
    package struct Found: Equatable {
        package let line: Int
        package let column: Int
        package let isAlias: Bool
        package let name: String
    }

    package static func first(in text: String) -> Found? {
        var scan = Scan(bytes: Array(text.utf8))
        return scan.run()
    }

    private struct Scan {
        let bytes: [UInt8]
        var i = 0
        var line = 1
        var lineStart = 0
        /// The next character would be a node's first character.
        var atNodeStart = true
        /// Inside `[` or `{`: plain scalars end at `,` `[` `]` `{` `}`, and line breaks do not restart nodes.
        var flowDepth = 0
        /// The column (0-based) where the node being read began: a key's column is its mapping's indentation.
        var nodeColumn = 0
        /// The indentation of the collection that owns the node after the last `- `, `? ` or `: `.
        var ownerIndent = -1
        /// A block-context plain scalar is open: lines indented deeper than this continue it.
        var plainOwnerIndent: Int?
        /// A block scalar (`|`, `>`) starts on the next line; its text must be indented deeper than this.
        var pendingBlockOwnerIndent: Int?
        /// Explicit indentation from a block scalar header (`|2`), if any.
        var pendingBlockIndentation: Int?

        init(bytes: [UInt8]) { self.bytes = bytes }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        func isBreakOrEnd(_ at: Int) -> Bool { at >= bytes.count || bytes[at] == 0x0A }
        func isBlankOrEnd(_ at: Int) -> Bool { isBreakOrEnd(at) || Scan.isSpace(bytes[at]) }
        func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"),
                 UInt8(ascii: "{"), UInt8(ascii: "}"): return false
            default: return true
            }
        }
        func indentation(at start: Int) -> (indent: Int, blank: Bool) {
            var indent = 0
            while start + indent < bytes.count, bytes[start + indent] == 0x20 { indent += 1 }
            var j = start + indent
            while j < bytes.count, Scan.isSpace(bytes[j]) { j += 1 }
            return (indent, isBreakOrEnd(j))
        }

        mutating func skipLine() {
            while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            if i < bytes.count { i += 1; line += 1; lineStart = i }
        }

        /// A line's start in block context: inside a block scalar, a plain scalar's continuation, or a new node.
        mutating func beginLine() {
            if let owner = pendingBlockOwnerIndent {
                pendingBlockOwnerIndent = nil
                // The block's indentation is its first non-blank line's (or the header's explicit one).
                var probe = i
                var contentIndent: Int?
                while probe < bytes.count {
                    let (indent, blank) = indentation(at: probe)
                    if !blank { contentIndent = indent; break }
                    while probe < bytes.count, bytes[probe] != 0x0A { probe += 1 }
                    probe += 1
                }
                if let explicit = pendingBlockIndentation { contentIndent = max(owner, 0) + explicit }
                pendingBlockIndentation = nil
                if let contentIndent, contentIndent > owner {
                    while i < bytes.count {
                        let (indent, blank) = indentation(at: i)
                        guard blank || indent >= contentIndent else { break }
                        skipLine()
                    }
                }
                if i >= bytes.count { return }
            }
            let (indent, blank) = indentation(at: i)
            if blank { return }
            if bytes[i + indent] == UInt8(ascii: "#") {
                plainOwnerIndent = nil
                return
            }
            // A document marker (`---`, `...`) at column 0 ends any scalar and is followed by a node.
            if indent == 0, i + 2 < bytes.count, isBlankOrEnd(i + 3),
               (bytes[i] == UInt8(ascii: "-") && bytes[i + 1] == UInt8(ascii: "-") && bytes[i + 2] == UInt8(ascii: "-"))
                || (bytes[i] == UInt8(ascii: ".") && bytes[i + 1] == UInt8(ascii: ".") && bytes[i + 2] == UInt8(ascii: ".")) {
                plainOwnerIndent = nil
                atNodeStart = true
                ownerIndent = -1
                i += 3
                return
            }
            if let owner = plainOwnerIndent, indent > owner {
                atNodeStart = false
                return
            }
            plainOwnerIndent = nil
            atNodeStart = true
            ownerIndent = indent - 1
        }

        /// A node begins at `i`: a plain scalar in block context may go on over the next lines.
        mutating func beginNode() {
            atNodeStart = false
            nodeColumn = i - lineStart
            if flowDepth == 0 { plainOwnerIndent = ownerIndent }
        }

        mutating func run() -> Found? {
            beginLine()
            while i < bytes.count {
                let byte = bytes[i]
                let previous = i > lineStart ? bytes[i - 1] : 0x0A
                switch byte {
                case 0x0A:
                    i += 1
                    line += 1
                    lineStart = i
                    if flowDepth == 0 { beginLine() }
                    continue
                case 0x20, 0x09, 0x0D:
                    i += 1
                    continue
                case UInt8(ascii: "#") where previous == 0x20 || previous == 0x09 || previous == 0x0A:
                    // A comment ends a plain scalar: the next line starts a node of its own.
                    if flowDepth == 0 { plainOwnerIndent = nil }
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                    continue
                default:
                    break
                }
                if atNodeStart {
                    switch byte {
                    case UInt8(ascii: "&"), UInt8(ascii: "*"):
                        if i + 1 < bytes.count, isNameByte(bytes[i + 1]) {
                            var end = i + 1
                            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                            let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
                            return Found(line: line, column: column, isAlias: byte == UInt8(ascii: "*"),
                                         name: String(decoding: bytes[(i + 1)..<end], as: UTF8.self))
                        }
                    case UInt8(ascii: "!"):
                        // A tag: the node still starts after it (`!!str &t v`).
                        while i < bytes.count, !isBlankOrEnd(i) { i += 1 }
                        continue
                    case UInt8(ascii: "-") where isBlankOrEnd(i + 1), UInt8(ascii: "?") where isBlankOrEnd(i + 1),
                         UInt8(ascii: ":") where isBlankOrEnd(i + 1):
                        ownerIndent = i - lineStart
                        nodeColumn = ownerIndent
                        plainOwnerIndent = nil
                        i += 1
                        continue
                    case UInt8(ascii: "\""), UInt8(ascii: "'"):
                        beginNode()
                        plainOwnerIndent = nil
                        skipQuoted(quote: byte)
                        continue
                    case UInt8(ascii: "|") where flowDepth == 0, UInt8(ascii: ">") where flowDepth == 0:
                        beginNode()
                        plainOwnerIndent = nil
                        pendingBlockOwnerIndent = ownerIndent
                        var j = i + 1
                        while j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+")
                                || (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[j]) {
                            if bytes[j] != UInt8(ascii: "-"), bytes[j] != UInt8(ascii: "+") { pendingBlockIndentation = Int(bytes[j] - UInt8(ascii: "0")) }
                            j += 1
                        }
                        // The rest of the header line is blank or a comment.
                        while j < bytes.count, bytes[j] != 0x0A {
                            if bytes[j] == UInt8(ascii: "#") { break }
                            j += 1
                        }
                        i = j
                        continue
                    default:
                        break
                    }
                }
                switch byte {
                case UInt8(ascii: "[") where atNodeStart || flowDepth > 0, UInt8(ascii: "{") where atNodeStart || flowDepth > 0:
                    if flowDepth == 0 { beginNode(); plainOwnerIndent = nil }
                    flowDepth += 1
                    atNodeStart = true
                case UInt8(ascii: "]") where flowDepth > 0, UInt8(ascii: "}") where flowDepth > 0:
                    flowDepth -= 1
                    atNodeStart = false
                case UInt8(ascii: ",") where flowDepth > 0:
                    atNodeStart = true
                case UInt8(ascii: ":") where flowDepth > 0 || isBlankOrEnd(i + 1):
                    // `: ` ends a key (a plain scalar cannot hold one); inside `{}` JSON's `"a":*b` too.
                    if flowDepth == 0 {
                        ownerIndent = nodeColumn
                        plainOwnerIndent = nil
                    }
                    atNodeStart = true
                default:
                    if atNodeStart { beginNode() }
                }
                i += 1
            }
            return nil
        }

        mutating func skipQuoted(quote: UInt8) {
            i += 1
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x0A { line += 1; lineStart = i + 1 }
                if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\") {
                    if i + 1 < bytes.count, bytes[i + 1] == 0x0A { line += 1; lineStart = i + 2 }
                    i += 2
                    continue
                }
                if b == quote {
                    // '' inside single quotes is an escaped quote, not the end.
                    if quote == UInt8(ascii: "'"), i + 1 < bytes.count, bytes[i + 1] == quote { i += 2; continue }
                    break
                }
                i += 1
            }
            i += 1
        }
    }
}

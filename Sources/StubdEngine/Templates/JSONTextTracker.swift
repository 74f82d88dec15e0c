/// Follows a JSON answer's literal text as the parser reads it, to tell whether the next tag
/// stands inside a string. A value there is escaped for the string (`"` → `\"`, `\` → `\\`,
/// control characters) so a request value cannot end the string and write keys of its own.
///
/// Only the template's own text is followed, not what a tag renders: `{{{raw}}}` that writes a
/// quote is the author's choice, and a block's body is expected to leave quotes as it found them.
package struct JSONTextTracker {
    private(set) var inString = false
    private var escaped = false

    mutating func read(_ text: some Sequence<UInt8>) {
        for byte in text {
            if escaped { escaped = false; continue }
            if byte == UInt8(ascii: "\\") { escaped = inString; continue }
            if byte == UInt8(ascii: "\"") { inString.toggle() }
        }
    }
}

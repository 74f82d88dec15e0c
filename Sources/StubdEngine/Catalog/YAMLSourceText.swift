import Yams

/// A manifest's text, to place a problem found inside one of its string values (a template's) at
/// the line and column the user wrote, not at the value's first character.
///
/// Yams gives each node only where it starts, and a value's text differs from the file's: quotes,
/// escapes, folded lines and block indentation are gone. So the value is walked again over the
/// file's text, character for character, the way YAML read it.
package struct YAMLSourceText {
    private let lines: [[Unicode.Scalar]]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            Array((line.last == "\r" ? line.dropLast() : line).unicodeScalars)
        }
    }

    /// Where a problem at `line`:`column` of a string scalar's value stands in the file.
    func place(line: Int, column: Int, inValueOf node: Node) -> (line: Int, column: Int) {
        guard case .scalar(let scalar) = node else { return (node.mark?.line ?? 1, node.mark?.column ?? 1) }
        var offset = 0
        var valueLine = 1
        for character in scalar.string.unicodeScalars {
            if valueLine == line { break }
            offset += 1
            if character == "\n" { valueLine += 1 }
        }
        return place(offset: offset + column - 1, inValueOf: node)
    }

    /// Where a problem at `line`:`column` of `serialized` (the compact JSON of a manifest's `json:`
    /// node) stands in the file: in the YAML string the JSON string around it was written from.
    func place(line: Int, column: Int, inJSON serialized: String, of node: Node) -> (line: Int, column: Int) {
        let fallback = (node.mark?.line ?? 1, node.mark?.column ?? 1)
        // The compact serialization is one line: a newline in a value is written `\n`.
        guard line == 1 else { return fallback }
        let text = Array(serialized.unicodeScalars)
        var index = 0, token = -1, decoded = 0, inString = false
        while index < min(column - 1, text.count) {
            let character = text[index]
            if inString {
                if character == "\\" {
                    index += index + 1 < text.count && text[index + 1] == "u" ? 6 : 2
                    decoded += 1
                } else if character == "\"" {
                    inString = false
                    index += 1
                } else {
                    decoded += 1
                    index += 1
                }
            } else {
                if character == "\"" { inString = true; token += 1; decoded = 0 }
                index += 1
            }
        }
        let strings = YAMLSourceText.jsonStrings(in: node)
        guard inString, token < strings.count else { return fallback }
        return place(offset: decoded, inValueOf: strings[token])
    }

    /// The YAML nodes that become JSON strings, in the order `JSONValue.serialized` writes them
    /// (object keys sorted; scalars typed as `ManifestParser.json` types them).
    static func jsonStrings(in node: Node) -> [Node] {
        switch node {
        case .scalar:
            let typed: Set<String> = [Tag.Name.null.rawValue, Tag.Name.bool.rawValue, Tag.Name.int.rawValue, Tag.Name.float.rawValue]
            return typed.contains(node.tag.rawValue) ? [] : [node]
        case .sequence(let items):
            return items.flatMap { jsonStrings(in: $0) }
        case .mapping(let map):
            var members: [String: (key: Node, value: Node)] = [:]
            for (key, value) in map { members[key.string ?? ""] = (key, value) }
            return members.keys.sorted().flatMap { name in [members[name]!.key] + jsonStrings(in: members[name]!.value) }
        case .alias:
            return []
        }
    }

    /// Where the value's character at `offset` (counted in Unicode scalars) stands in the file.
    private func place(offset: Int, inValueOf node: Node) -> (line: Int, column: Int) {
        let positions = self.positions(of: node)
        guard !positions.isEmpty else { return (node.mark?.line ?? 1, node.mark?.column ?? 1) }
        return positions[max(0, min(offset, positions.count - 1))]
    }

    /// The file position of each character of a string scalar's value, and of the place just past it.
    private func positions(of node: Node) -> [(line: Int, column: Int)] {
        guard case .scalar(let scalar) = node, let mark = node.mark, mark.line >= 1, mark.line <= lines.count else { return [] }
        let count = scalar.string.unicodeScalars.count
        var out: [(line: Int, column: Int)] = []
        switch scalar.style {
        case .literal, .folded:
            // The text starts on the line after the `|` or `>`, at the indentation of its first line.
            var indent: Int?
            var index = mark.line
            while out.count < count, index < lines.count {
                let text = lines[index]
                let leading = text.prefix { $0 == " " }.count
                if leading == text.count {
                    out.append((index + 1, text.count + 1))
                    index += 1
                    continue
                }
                if indent == nil { indent = leading }
                guard leading >= indent! else { break }
                for column in indent!..<text.count { out.append((index + 1, column + 1)) }
                out.append((index + 1, text.count + 1))
                index += 1
            }
        default:
            let quote: Unicode.Scalar? = scalar.style == .singleQuoted ? "'" : scalar.style == .doubleQuoted ? "\"" : nil
            var index = mark.line - 1
            var column = mark.column - 1 + (quote == nil ? 0 : 1)
            func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }
            while out.count < count, index < lines.count {
                let text = lines[index]
                if column >= text.count {
                    // A line break inside the value: folded into one space, or into the blank lines after it.
                    var next = index + 1
                    var blanks = 0
                    while next < lines.count, lines[next].allSatisfy(isSpace) { blanks += 1; next += 1 }
                    for _ in 0..<max(1, blanks) { out.append((index + 1, text.count + 1)) }
                    guard next < lines.count else { break }
                    index = next
                    column = lines[next].prefix(while: isSpace).count
                    continue
                }
                let character = text[column]
                if let quote, character == quote {
                    guard quote == "'", column + 1 < text.count, text[column + 1] == "'" else { break }
                    out.append((index + 1, column + 1))
                    column += 2
                    continue
                }
                if quote == "\"", character == "\\" {
                    guard column + 1 < text.count else {
                        // An escaped line break joins the lines without a character.
                        index += 1
                        column = index < lines.count ? lines[index].prefix(while: isSpace).count : 0
                        continue
                    }
                    out.append((index + 1, column + 1))
                    switch text[column + 1] {
                    case "x": column += 4
                    case "u": column += 6
                    case "U": column += 10
                    default: column += 2
                    }
                    continue
                }
                out.append((index + 1, column + 1))
                column += 1
            }
        }
        let end = out.last.map { ($0.line, $0.column + 1) } ?? (mark.line, mark.column)
        while out.count <= count { out.append(end) }
        return out
    }
}

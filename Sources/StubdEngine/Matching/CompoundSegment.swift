/// A path segment holding two or more `{name}` parameters with fixed text between them, as OpenAPI
/// specs write tiles and files: `{y}.{format}`, `{name}-{version}.{ext}`, `v{major}.{minor}`.
///
/// Matching, without a regular expression: the fixed text before the first parameter and after the
/// last must open and close the segment; each parameter takes at least one character; an earlier
/// parameter takes the shortest text that lets the rest of the segment match, so `1.2.png` against
/// `{y}.{format}` is y=`1`, format=`2.png`. That is the first occurrence of each separator, with no
/// backtracking: when a later occurrence lets the rest match, the first does too (the next
/// parameter takes the difference). Prism reads values the same way (uri-template-lite's lazy
/// `(.*?)`, though it lets a value be empty); path-to-regexp 8 lets a later parameter hold no copy
/// of the text before it, so it reads `route.html.json` against `:test.:format` as test=`route.html`.
package struct CompoundSegment: Sendable, Hashable, CustomStringConvertible {
    /// The parameters' names, in order (two or more).
    package let names: [String]
    /// The fixed text before, between and after the parameters: one more piece than `names`; the
    /// first and last may be empty, those between never are (`{a}{b}` could be split anywhere).
    package let texts: [String]
    /// The fewest UTF-8 bytes a segment needs: all the fixed text and one byte per parameter.
    private let minimumLength: Int

    package init(names: [String], texts: [String]) {
        precondition(names.count >= 2 && texts.count == names.count + 1, "a compound segment has 2+ parameters and a text around each")
        precondition(texts.dropFirst().dropLast().allSatisfy { !$0.isEmpty }, "parameters in one segment are separated by text")
        self.names = names
        self.texts = texts
        minimumLength = texts.reduce(names.count) { $0 + $1.utf8.count }
    }

    /// As written in a pattern: `{y}.{format}`.
    package var description: String {
        var written = texts[0]
        for (name, text) in zip(names, texts.dropFirst()) { written += "{\(name)}" + text }
        return written
    }

    /// The same segment with its parameters' names erased: what it takes depends on the text only.
    package var shape: CompoundSegment {
        CompoundSegment(names: names.map { _ in "" }, texts: texts)
    }

    /// The values the segment's parameters take from `segment`, in order; nil when it does not match.
    func values(in segment: Substring) -> [Substring]? {
        var values: [Substring] = []
        values.reserveCapacity(names.count)
        return split(segment) { values.append($0) } ? values : nil
    }

    /// Whether `segment` matches, without building its values (the route tree asks this of every
    /// request that reaches the segment).
    func accepts(_ segment: Substring) -> Bool {
        split(segment) { _ in }
    }

    /// The segment with `values` in place of its parameters (`["1", "png"]` → `1.png`).
    package func filled(with values: [String]) -> String {
        var text = texts[0]
        for (value, next) in zip(values, texts.dropFirst()) { text += value + next }
        return text
    }

    /// Hands each parameter's value to `take`, in order; false (after handing some, perhaps) when
    /// `segment` does not match. Compares UTF-8 bytes: a separator found in valid UTF-8 starts on a
    /// scalar boundary, so every value is whole text.
    private func split(_ segment: Substring, _ take: (Substring) -> Void) -> Bool {
        let bytes = segment.utf8
        guard bytes.count >= minimumLength else { return false }
        let head = texts[0].utf8, tail = texts[texts.count - 1].utf8
        guard bytes.starts(with: head), bytes.reversed().starts(with: tail.reversed()) else { return false }
        var start = bytes.index(bytes.startIndex, offsetBy: head.count)
        let end = bytes.index(bytes.endIndex, offsetBy: -tail.count)
        for separator in texts[1..<texts.count - 1] {
            // The parameter takes at least one byte, so its separator is looked for after that one.
            guard start < end, let found = Self.firstIndex(of: separator.utf8, in: bytes, from: bytes.index(after: start), before: end)
            else { return false }
            take(segment[start..<found])
            start = bytes.index(found, offsetBy: separator.utf8.count)
        }
        guard start < end else { return false }
        take(segment[start..<end])
        return true
    }

    /// Where `needle` first occurs wholly within `bytes[from..<end]`.
    private static func firstIndex(of needle: String.UTF8View, in bytes: Substring.UTF8View,
                                   from: Substring.UTF8View.Index, before end: Substring.UTF8View.Index) -> Substring.UTF8View.Index? {
        guard let first = needle.first else { return from }
        var index = from
        while index < end {
            if bytes[index] == first, bytes[index..<end].starts(with: needle) { return index }
            index = bytes.index(after: index)
        }
        return nil
    }
}

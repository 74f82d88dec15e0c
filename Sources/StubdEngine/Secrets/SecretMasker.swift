package import Foundation

/// Replaces known secret values wherever they appear, in text or in any bytes (a token echoed in
/// a PNG or in JSON that is not UTF-8 is found all the same): the longest value first, so a
/// token inside a longer credential does not leave the rest of it behind. Each value is looked for
/// in every spelling it takes in JSON and in URLs (`SecretSpellings`), and, for what the journal
/// shows (`readingJSON()`), in the JSON the text holds once decoded (`JSONTextMasking`).
package struct SecretMasker: Sendable {
    /// Each value with what stands in for it (`<key>`, `<redacted>`, `<masked>`), as given.
    package private(set) var literals: [(value: String, placeholder: String)] = []
    /// Every spelling of each value with its placeholder, longest first: what the byte search looks for.
    private var needles: [(bytes: Data, placeholder: Data)] = []
    /// Also decodes the JSON strings of what it masks and replaces secret fields' values whatever
    /// their length: for the journal and its HAR export, not for a recorded file, whose bytes are the API's.
    package private(set) var readsJSON = false

    package init(_ literals: [(value: String, placeholder: String)] = []) {
        add(literals)
    }

    package var isEmpty: Bool { literals.isEmpty }

    /// Adds values (empty ones, and ones already held, ignored), keeping the longest first.
    package mutating func add(_ more: [(value: String, placeholder: String)]) {
        for literal in more where !literal.value.isEmpty && !literals.contains(where: { $0.value == literal.value }) {
            literals.append(literal)
            let placeholder = Data(literal.placeholder.utf8)
            for spelling in SecretSpellings.of(literal.value) where !needles.contains(where: { $0.bytes == Data(spelling.utf8) }) {
                needles.append((Data(spelling.utf8), placeholder))
            }
        }
        literals.sort { $0.value.utf8.count > $1.value.utf8.count }
        needles.sort { $0.bytes.count > $1.bytes.count }
    }

    package func adding(_ more: [(value: String, placeholder: String)]) -> SecretMasker {
        var copy = self
        copy.add(more)
        return copy
    }

    /// The same values, masked in the JSON a text holds too (see `readsJSON`).
    package func readingJSON() -> SecretMasker {
        var copy = self
        copy.readsJSON = true
        return copy
    }

    /// Whether any value, in any of its spellings, occurs in `text`.
    package func finds(in text: String) -> Bool {
        let data = Data(text.utf8)
        return needles.contains { data.range(of: $0.bytes) != nil }
    }

    package func mask(_ text: String) -> String {
        if literals.isEmpty && !readsJSON { return text }
        let utf8 = Data(text.utf8)
        let masked = mask(utf8)
        // A UTF-8 value matches only whole characters, so the result is valid UTF-8 again.
        return masked == utf8 ? text : String(decoding: masked, as: UTF8.self)
    }

    /// Byte search: the body's type and encoding do not matter.
    package func mask(_ data: Data) -> Data {
        var out = replacingNeedles(data)
        if readsJSON, let masked = JSONTextMasking.masked(Array(out), values: { self.replacingNeedles($0) }) { out = Data(masked) }
        return out
    }

    /// A decoded string's content with every value replaced.
    private func replacingNeedles(_ text: String) -> String {
        guard !needles.isEmpty else { return text }
        let utf8 = Data(text.utf8)
        let masked = replacingNeedles(utf8)
        return masked == utf8 ? text : String(decoding: masked, as: UTF8.self)
    }

    private func replacingNeedles(_ data: Data) -> Data {
        var out = data
        for (needle, replacement) in needles {
            guard out.range(of: needle) != nil else { continue }
            var next = Data()
            next.reserveCapacity(out.count)
            var start = out.startIndex
            while let found = out.range(of: needle, in: start..<out.endIndex) {
                next.append(out[start..<found.lowerBound])
                next.append(replacement)
                start = found.upperBound
            }
            next.append(out[start..<out.endIndex])
            out = next
        }
        return out
    }
}

package import Foundation

/// Replaces known secret values wherever they appear, in text or in any bytes (a token echoed in
/// a PNG or in JSON that is not UTF-8 is found all the same): the longest value first, so a
/// token inside a longer credential does not leave the rest of it behind.
package struct SecretMasker: Sendable {
    /// Each value with what stands in for it (`<key>`, `<redacted>`, `<masked>`).
    package private(set) var literals: [(value: String, placeholder: String)] = []

    package init(_ literals: [(value: String, placeholder: String)] = []) {
        add(literals)
    }

    package var isEmpty: Bool { literals.isEmpty }

    /// Adds values (empty ones ignored), keeping the longest first.
    package mutating func add(_ more: [(value: String, placeholder: String)]) {
        literals += more.filter { !$0.value.isEmpty }
        literals.sort { $0.value.utf8.count > $1.value.utf8.count }
    }

    package func adding(_ more: [(value: String, placeholder: String)]) -> SecretMasker {
        var copy = self
        copy.add(more)
        return copy
    }

    /// Whether any value occurs in `text`.
    package func finds(in text: String) -> Bool {
        literals.contains { text.contains($0.value) }
    }

    package func mask(_ text: String) -> String {
        if literals.isEmpty { return text }
        let utf8 = Data(text.utf8)
        let masked = mask(utf8)
        // A UTF-8 value matches only whole characters, so the result is valid UTF-8 again.
        return masked == utf8 ? text : String(decoding: masked, as: UTF8.self)
    }

    /// Byte search: the body's type and encoding do not matter.
    package func mask(_ data: Data) -> Data {
        var out = data
        for (value, placeholder) in literals {
            let needle = Data(value.utf8), replacement = Data(placeholder.utf8)
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

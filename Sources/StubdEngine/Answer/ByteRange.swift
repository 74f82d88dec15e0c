import Foundation

/// One range of a `Range: bytes=…` request header (RFC 9110 §14.1.2), resolved against a body's length.
package enum ByteRange: Equatable {
    /// The bytes `lower...upper` (both within the body).
    case bytes(lower: Int, upper: Int)
    /// A syntactically valid range no byte of the body satisfies: a 416.
    case unsatisfiable
    /// Not one byte range stubd can answer with a single part (another unit, several ranges, bad
    /// syntax): the header is ignored and the whole body sent, as RFC 9110 §14.2 allows.
    case ignored

    /// `bytes=0-99`, `bytes=100-`, `bytes=-100` against a body of `length` bytes. Numbers are read
    /// with overflow checked: a client's `bytes=0-99999999999999999999` is a range to the end.
    static func parse(_ value: Substring, length: Int) -> ByteRange {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes=") else { return .ignored }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignored }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            // A suffix: the last N bytes.
            guard let suffix = number(last) else { return .ignored }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .bytes(lower: max(0, length - suffix), upper: length - 1)
        }
        guard let lower = number(first) else { return .ignored }
        var upper = length - 1
        if !last.isEmpty {
            guard let named = number(last) else { return .ignored }
            guard named >= lower else { return .ignored }
            upper = min(named, length - 1)
        }
        guard lower < length else { return .unsatisfiable }
        return .bytes(lower: lower, upper: upper)
    }

    /// Digits only; a number past `Int.max` saturates (it names a byte past any body's end).
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        var value = 0
        for digit in text.utf8 {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if o1 || o2 { return Int.max }
            value = plus
        }
        return value
    }
}

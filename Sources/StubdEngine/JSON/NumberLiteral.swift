/// A number as written (`9223372036854775807`, `1.5e300`), kept beside its Double where the Double
/// loses it: the integer part exactly, and whether a fraction follows.
///
/// Where the Double is exact (below 2^53) nothing is kept; past it every Double is a whole number, so
/// the literal is what tells `9007199254740993` from `9007199254740992` and `9007199254740993.5` from both.
package struct NumberLiteral: Sendable, Hashable {
    /// Rounded toward zero.
    package let integerPart: ExactInteger
    package let hasFraction: Bool

    /// A Double holds every integer up to this magnitude; past it, literals are kept.
    package static let exactLimit: Double = 9007199254740992

    /// Reads JSON's and YAML 1.2's decimal spelling: `-12`, `+1.50`, `.5`, `1e20`, `12345678901234567890`.
    package init?(_ text: some StringProtocol) {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == 0x2D || first == 0x2B { negative = first == 0x2D; bytes = bytes.dropFirst() }
        let whole = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        bytes = bytes.dropFirst(whole.count)
        var fraction = bytes[bytes.startIndex..<bytes.startIndex]
        if bytes.first == 0x2E {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
            bytes = bytes.dropFirst(fraction.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        var exponent = 0
        if let e = bytes.first, e == 0x65 || e == 0x45 {
            bytes = bytes.dropFirst()
            var expNegative = false
            if let s = bytes.first, s == 0x2D || s == 0x2B { expNegative = s == 0x2D; bytes = bytes.dropFirst() }
            let expDigits = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
            bytes = bytes.dropFirst(expDigits.count)
            // Past a few thousand the Double is infinite or zero, and the reader refused it or reads 0.
            guard !expDigits.isEmpty, expDigits.count < 6, let n = Int(String(decoding: expDigits, as: UTF8.self)) else { return nil }
            exponent = expNegative ? -n : n
        }
        guard bytes.isEmpty else { return nil }
        let all = (Array(whole) + Array(fraction)).map { $0 - 0x30 }
        let point = whole.count + exponent
        guard point < 100_000 else { return nil }
        let fractional: Bool
        if point >= all.count {
            integerPart = ExactInteger(negative: negative, digits: all + Array(repeating: 0, count: point - all.count))
            fractional = false
        } else if point <= 0 {
            integerPart = ExactInteger(negative: negative, digits: [0])
            fractional = all.contains { $0 != 0 }
        } else {
            integerPart = ExactInteger(negative: negative, digits: all[..<point])
            fractional = all[point...].contains { $0 != 0 }
        }
        hasFraction = fractional
        negativeFraction = negative && fractional
    }

    package init(integer: ExactInteger) {
        integerPart = integer
        hasFraction = false
        negativeFraction = false
    }

    /// The sign of a literal whose integer part is zero (`-0.5`), which `integerPart` cannot carry.
    private let negativeFraction: Bool

    /// −1, 0 or 1 as the literal is below, at or above `bound`.
    package func compare(to bound: ExactInteger) -> Int {
        if integerPart < bound {
            // A negative fraction lies below its integer part, a positive one above (and so at or past the next integer).
            return -1
        }
        if integerPart > bound { return 1 }
        guard hasFraction else { return 0 }
        return integerPart.negative || negativeFraction ? -1 : 1
    }
}

/// An integer of any size, held as its decimal digits: what a `Double` cannot hold past 2^53, where
/// `9223372036854775807` (Int64's maximum) and `9223372036854775808` are the same Double.
package struct ExactInteger: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// False for zero.
    package let negative: Bool
    /// Most significant first, no leading zeros; "0" for zero.
    package let digits: [UInt8]

    package init(negative: Bool, digits: some Collection<UInt8>) {
        var trimmed = Array(digits.drop { $0 == 0 })
        if trimmed.isEmpty { trimmed = [0] }
        self.digits = trimmed
        self.negative = negative && trimmed != [0]
    }

    package init(_ value: Int64) {
        self.init(negative: value < 0, magnitude: value.magnitude)
    }

    package init(negative: Bool, magnitude: UInt64) {
        self.init(negative: negative, digits: String(magnitude).utf8.map { $0 - 0x30 })
    }

    /// The integer a whole, finite Double is, digit for digit (2^63 is 9223372036854775808); nil for a fraction.
    package init?(_ value: Double) {
        guard value.isFinite, value.rounded(.towardZero) == value else { return nil }
        if value.magnitude < 9.2e18 { self.init(Int64(value)); return }
        // Past Int64: the significand doubled `exponent − 52` times, in decimal.
        var little: [UInt8] = String(value.significandBitPattern | (1 << 52)).utf8.reversed().map { $0 - 0x30 }
        for _ in 0..<(Int(value.exponent) - 52) {
            var carry: UInt8 = 0
            for i in little.indices {
                let d = little[i] * 2 + carry
                little[i] = d % 10
                carry = d / 10
            }
            if carry > 0 { little.append(carry) }
        }
        self.init(negative: value < 0, digits: little.reversed())
    }

    package var description: String {
        (negative ? "-" : "") + String(decoding: digits.map { $0 + 0x30 }, as: UTF8.self)
    }

    package static func < (a: ExactInteger, b: ExactInteger) -> Bool {
        if a.negative != b.negative { return a.negative }
        let magnitudeLess = a.digits.count != b.digits.count ? a.digits.count < b.digits.count : a.digits.lexicographicallyPrecedes(b.digits)
        return a.negative ? (b.digits.count != a.digits.count ? b.digits.count < a.digits.count : b.digits.lexicographicallyPrecedes(a.digits)) : magnitudeLess
    }

    /// The magnitude's remainder after division by `m` (> 0), without ever holding the magnitude.
    package func remainder(dividingBy m: UInt64) -> UInt64 {
        var r: UInt64 = 0
        for d in digits {
            var (high, low) = r.multipliedFullWidth(by: 10)
            let (sum, carried) = low.addingReportingOverflow(UInt64(d))
            low = sum
            if carried { high += 1 }
            r = m.dividingFullWidth((high, low)).remainder
        }
        return r
    }

    /// Int64's range, exactly: `format: int64`.
    package var isInt64: Bool {
        self >= ExactInteger(Int64.min) && self <= ExactInteger(Int64.max)
    }
}

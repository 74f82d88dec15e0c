import StubdEngine

/// A set of Unicode scalars, as a pattern's character class, `.`, `\d` or `\p{L}` denotes: sorted
/// ranges of code points, plus Unicode properties, the whole possibly inverted. ASCII is answered
/// from a bitmap, as most of what schemas check is.
struct ScalarSet: Sendable, Equatable {
    private(set) var ranges: [ClosedRange<UInt32>]
    private(set) var properties: [UnicodeProperty]
    private(set) var inverted: Bool
    /// Which of 0..<128 the set holds, bit n of word n / 64.
    private var ascii: (UInt64, UInt64) = (0, 0)

    static func == (a: ScalarSet, b: ScalarSet) -> Bool {
        a.ranges == b.ranges && a.properties == b.properties && a.inverted == b.inverted
    }

    init(ranges: [ClosedRange<UInt32>], properties: [UnicodeProperty] = [], inverted: Bool = false) {
        self.ranges = ScalarSet.normalized(ranges)
        self.properties = properties
        self.inverted = inverted
        var bits: (UInt64, UInt64) = (0, 0)
        for c in UInt32(0)..<128 where slowContains(c) {
            if c < 64 { bits.0 |= 1 << UInt64(c) } else { bits.1 |= 1 << UInt64(c - 64) }
        }
        ascii = bits
    }

    static func single(_ c: UInt32) -> ScalarSet { ScalarSet(ranges: [c...c]) }
    static let digits = ScalarSet(ranges: [0x30...0x39])
    static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// ECMA-262's WhiteSpace and LineTerminator.
    static let space = ScalarSet(ranges: [0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
                                          0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF])
    /// `.`: anything but a line terminator.
    static let dot = ScalarSet(ranges: [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029], inverted: true)
    static let nothing = ScalarSet(ranges: [])

    /// The set of every scalar not in this one.
    var complement: ScalarSet { ScalarSet(ranges: ranges, properties: properties, inverted: !inverted) }

    /// This set's scalars as plain ranges, when it has no properties.
    var explicitRanges: [ClosedRange<UInt32>]? {
        guard properties.isEmpty else { return nil }
        return inverted ? ScalarSet.invert(ranges) : ranges
    }

    /// The union of class members (`[a-z\d\P{L}]`): ranges merge; a member with properties or
    /// inverted ranges is kept whole.
    static func union(_ members: [ScalarSet]) -> ScalarSet {
        var ranges: [ClosedRange<UInt32>] = []
        var properties: [UnicodeProperty] = []
        for member in members {
            if let plain = member.explicitRanges {
                ranges += plain
            } else if !member.inverted {
                ranges += member.ranges
                properties += member.properties
            } else {
                // An inverted set with properties (`\P{L}` is one property, negated, not an inverted set).
                properties.append(.complementOf(member))
            }
        }
        return ScalarSet(ranges: ranges, properties: properties)
    }

    func contains(_ c: UInt32) -> Bool {
        if c < 64 { return ascii.0 & (1 << UInt64(c)) != 0 }
        if c < 128 { return ascii.1 & (1 << UInt64(c - 64)) != 0 }
        return slowContains(c)
    }

    private func slowContains(_ c: UInt32) -> Bool {
        var low = 0, high = ranges.count
        var found = false
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < c { low = mid + 1 } else if ranges[mid].lowerBound > c { high = mid } else { found = true; break }
        }
        if !found, !properties.isEmpty, let scalar = Unicode.Scalar(c) {
            found = properties.contains { $0.contains(scalar) }
        }
        return found != inverted
    }

    private static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var out: [ClosedRange<UInt32>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound &+ 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    private static func invert(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for r in ranges {
            if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
            next = r.upperBound + 1
        }
        if next <= 0x10FFFF { out.append(next...0x10FFFF) }
        return out
    }
}

import StubdProtocol
import StubdEngine

/// SplitMix64 seeded from a text (FNV-1a): the same route gives the same numbers on every import,
/// on every machine, so a re-import writes the same bytes.
struct SeededRandom {
    private var state: UInt64

    init(seed text: String) {
        state = FNV1a(text.utf8).value
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A number in `0..<count` (count ≥ 1).
    mutating func below(_ count: Int) -> Int {
        Int(next() % UInt64(max(count, 1)))
    }
}

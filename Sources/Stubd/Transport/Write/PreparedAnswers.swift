import StubdEngine

/// libmicrohttpd's form of every canned answer of one catalog (`PreparedResponse`), made before the
/// catalog is put in force so its first requests pay nothing, and found by the answer's identity.
///
/// The front keeps it, not the engine: the engine's catalog holds nothing of any transport. It is
/// published with its catalog (`RequestRouter.install`), and a request reads the two together, once
/// (`IncomingRequest.answers`), as it read the catalog alone before; an answer no catalog holds (a
/// runtime stub's, a range's, a spec example's) gets a response made for it.
///
/// An open-addressing table keyed by the answer's address, hashed by one multiplication: a
/// `Dictionary` of `ObjectIdentifier` would hash with SipHash on every lookup. It holds its answers,
/// so no address is reused while it lives.
final class PreparedAnswers: @unchecked Sendable {
    /// The catalog whose answers these are: a request reads both in one published read.
    let catalog: StubCatalog
    private let answers: [CannedResponse?]
    private let prepared: [PreparedResponse?]
    private let mask: Int
    private let shift: Int

    init(_ catalog: StubCatalog) {
        self.catalog = catalog
        var all: [CannedResponse] = []
        for canned in catalog.responses { all.append(canned); all += canned.alternatives }
        // At most half full, so a probe ends after a step or two.
        var capacity = 8
        while capacity < all.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        shift = UInt.bitWidth - capacity.trailingZeroBitCount
        var answers = [CannedResponse?](repeating: nil, count: capacity)
        var prepared = [PreparedResponse?](repeating: nil, count: capacity)
        for canned in all {
            var slot = Self.slot(of: canned, shift: shift)
            while let taken = answers[slot] {
                if taken === canned { break }
                slot = (slot + 1) & mask
            }
            if answers[slot] == nil {
                answers[slot] = canned
                prepared[slot] = PreparedResponse(canned)
            }
        }
        self.answers = answers
        self.prepared = prepared
    }

    /// The response made for `canned`, or nil when this catalog does not hold it.
    @inline(__always)
    func lookUp(_ canned: CannedResponse) -> PreparedResponse? {
        var slot = Self.slot(of: canned, shift: shift)
        while let held = answers[slot] {
            if held === canned { return prepared[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Fibonacci hashing of the address: the top bits of address × 2⁶⁴/φ.
    @inline(__always)
    private static func slot(of canned: CannedResponse, shift: Int) -> Int {
        let address = UInt(bitPattern: Unmanaged.passUnretained(canned).toOpaque())
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
    }
}

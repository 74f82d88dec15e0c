import Foundation

/// 64-bit FNV-1a: stable across runs and machines, unlike `Hasher`. For what must come out the
/// same everywhere: the folder's fingerprint, the watcher's signature, recorded names, seeds.
package struct FNV1a {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    package init(_ bytes: some Sequence<UInt8>) { add(bytes) }

    @inlinable
    package mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    /// The eight bytes of `number`, lowest first.
    package mutating func add(_ number: UInt64) {
        var rest = number
        for _ in 0..<8 { value = (value ^ (rest & 0xff)) &* 0x100_0000_01b3; rest >>= 8 }
    }

    /// `value` as 16 hex digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

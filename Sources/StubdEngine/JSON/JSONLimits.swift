/// How large a JSON value may grow: its bytes as `serialized` writes them, and its levels of nesting.
/// A request body is held to them by its size and by the parser; a value built from one without
/// being parsed (a JSON Patch's result: a `copy` of the whole item into itself doubles it, and 32
/// copies made a 1.4 KB patch ask for 4 GB) is measured against them as it is built.
package struct JSONLimits: Sendable {
    let maxBytes: Int
    let maxDepth: Int

    /// The nesting `JSONParser` reads: no value read from a request is deeper.
    package static let parserDepth = 512

    /// Which limit a value breaks.
    enum Excess: Equatable { case bytes, depth }

    /// What `value` breaks when it sits `depth` levels inside a document, or nil. The walk stops at
    /// the first byte past `maxBytes` or level past `maxDepth`, so it costs at most about `maxBytes`
    /// steps however large the value: a patch's copies share their storage, and a value of 2^32
    /// bytes as written can take a few KB of memory. It keeps its own stack, so no depth crashes it.
    func excess(of value: JSONValue, atDepth depth: Int = 0) -> Excess? {
        var bytes = 0
        var pending: [(value: JSONValue, depth: Int)] = [(value, depth)]
        while let next = pending.popLast() {
            let (value, depth) = next
            switch value {
            case .null: bytes += 4
            case .bool(let b): bytes += b ? 4 : 5
            case .number(let n): bytes += JSONLimits.writtenSize(of: n)
            case .string(let s): bytes += JSONLimits.writtenSize(of: s)
            case .array(let items):
                guard depth < maxDepth else { return .depth }
                // The brackets and the commas; each item counts its own bytes when it is taken.
                bytes += 2 + max(0, items.count - 1)
                if bytes > maxBytes { return .bytes }
                for item in items { pending.append((item, depth + 1)) }
            case .object(let members):
                guard depth < maxDepth else { return .depth }
                bytes += 2 + max(0, members.count - 1)
                for key in members.keys { bytes += JSONLimits.writtenSize(of: key) + 1 }
                if bytes > maxBytes { return .bytes }
                for member in members.values { pending.append((member, depth + 1)) }
            }
            if bytes > maxBytes { return .bytes }
        }
        return nil
    }

    /// A number's bytes as `JSONValue.serialized` writes it; a whole one counted without writing it,
    /// since items are mostly ids, counts and flags.
    static func writtenSize(of n: Double) -> Int {
        guard n.rounded() == n, abs(n) < 9.2e18 else { return JSONValue.number(n).serialized.utf8.count }
        var whole = Int64(n)
        var size = whole < 0 ? 2 : 1
        while whole / 10 != 0 { whole /= 10; size += 1 }
        return size
    }

    /// A string's bytes as `JSONValue.writeString` writes it, quotes and escapes included.
    static func writtenSize(of s: String) -> Int {
        var size = 2
        for byte in s.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09: size += 2
            case 0..<0x20: size += 6
            default: size += 1
            }
        }
        return size
    }
}

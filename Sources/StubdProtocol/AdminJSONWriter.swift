import Foundation

/// Encodes an admin document straight into JSON bytes, with the output `JSONEncoder` gives with
/// `[.sortedKeys, .withoutEscapingSlashes]` (`AdminJSONWriterTests` holds it to that, byte for byte).
///
/// Why not `JSONEncoder`: it builds a tree of boxed values and dictionaries first, and for the
/// dashboard's first paint of 10,000 routes `GET /__stubd/routes` and `/__stubd/hits` spent
/// 70–115 ms each in it (perf: retain/release, dictionary storage, key sorting). Here every value
/// is written once, in order, into one buffer; an object's members are reordered by key when it
/// closes, only if they were not written in order.
///
/// Codable's shape allows what a single pass cannot follow (writing to a container after a nested
/// one was opened beside it, `superEncoder`, asking for two containers); the writer then gives up
/// and `AdminCoding` falls back to `JSONEncoder`, so any document still encodes as before.
final class AdminJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Set when the document used something a single pass cannot write.
    private(set) var failed = false

    private struct Open {
        let id: Int
        let isObject: Bool
        /// Where each member starts (after its comma), with its key; objects only.
        var members: [(key: String, start: Int)] = []
        var count = 0
    }
    private var open: [Open] = []
    private var nextID = 0
    /// Whether the value being written has been given its container or single value yet.
    private var slotFilled = false

    init() { bytes.reserveCapacity(4096) }

    /// The document, or nil when `failed`.
    static func encode<T: Encodable>(_ value: T) -> [UInt8]? {
        let writer = AdminJSONWriter()
        writer.writeValue(value)
        return writer.failed || !writer.open.isEmpty ? nil : writer.bytes
    }

    func fail() { failed = true }

    // MARK: Values

    /// Writes `value` in the current place (the document, a member, an element).
    func writeValue<T: Encodable>(_ value: T) {
        switch value {
        case let string as String: writeString(string)
        case let number as Int: writeInteger(number)
        case let flag as Bool: fill(flag ? "true" : "false")
        case let number as Double: writeFloatingPoint(number)
        case let data as Data: writeString(data.base64EncodedString())
        case let url as URL: writeString(url.absoluteString)
        case is Decimal: fail()
        default:
            if slotFilled { fail() }
            let mark = open.count
            do { try value.encode(to: AdminJSONEncoder(writer: self)) } catch { fail() }
            // A value that encoded nothing is an empty object, as with JSONEncoder.
            if !slotFilled { fill("{}") }
            while open.count > mark { close() }
            slotFilled = true
        }
    }

    func writeNull() { fill("null") }

    func writeInteger<I: BinaryInteger>(_ value: I) { fill(value.description) }

    func writeFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) {
        guard value.isFinite else { return fail() }   // JSONEncoder throws here
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        fill(text)
    }

    func writeString(_ string: String) {
        if slotFilled { fail() }
        appendString(string)
        slotFilled = true
    }

    /// Writes a scalar's text in the current place, which must still be empty.
    private func fill(_ text: String) {
        if slotFilled { fail() }
        bytes.append(contentsOf: text.utf8)
        slotFilled = true
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private func appendString(_ string: String) {
        Self.append(string, to: &bytes)
    }

    /// One access to the buffer for the whole string (exclusivity checks per byte were a quarter
    /// of the time), and one copy when nothing in it needs escaping, which is the usual case.
    private static func append(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { appendEscaped(byte, to: &bytes) }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
        case 0x00..<0x20:
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        default: bytes.append(byte)
        }
    }

    // MARK: Containers

    /// Opens an object or array in the current value's place; returns its id.
    func openContainer(isObject: Bool) -> Int {
        if slotFilled { fail() }   // a second container for one value: JSONEncoder would merge them
        slotFilled = true
        nextID += 1
        open.append(Open(id: nextID, isObject: isObject))
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return nextID
    }

    /// Starts the next member or element of container `id`; false (and failed) when `id` is not
    /// the innermost open container, i.e. written to out of order or after it closed.
    func beginItem(of id: Int, key: String?) -> Bool {
        guard let last = open.indices.last, open[last].id == id else { fail(); return false }
        if open[last].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[last].count += 1
        if let key {
            open[last].members.append((key, bytes.count))
            appendString(key)
            bytes.append(UInt8(ascii: ":"))
        }
        slotFilled = false
        return true
    }

    func count(of id: Int) -> Int { open.last { $0.id == id }?.count ?? 0 }

    private func close() {
        let closing = open.removeLast()
        if closing.isObject { sortMembers(closing.members) }
        bytes.append(closing.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// Puts the object's members (from the first member's start to the end) in key order, keeping
    /// the last of a repeated key, as JSONEncoder's dictionary does.
    private func sortMembers(_ members: [(key: String, start: Int)]) {
        guard members.count > 1 else { return }
        var inOrder = true
        for i in 1..<members.count where !members[i - 1].key.utf8.lexicographicallyPrecedes(members[i].key.utf8) {
            inOrder = false
            break
        }
        if inOrder { return }
        let end = bytes.count
        // Stable, so of two equal keys the later one ends up second and is the one kept.
        let order = members.indices.sorted { a, b in
            let (x, y) = (members[a].key.utf8, members[b].key.utf8)
            return x.lexicographicallyPrecedes(y) || (!y.lexicographicallyPrecedes(x) && a < b)
        }
        let first = members[0].start
        scratch.removeAll(keepingCapacity: true)
        bytes.withUnsafeBufferPointer { buffer in
            var written = false
            for (n, i) in order.enumerated() {
                if n + 1 < order.count, members[order[n + 1]].key == members[i].key { continue }   // a later one of the same key follows
                if written { scratch.append(UInt8(ascii: ",")) }
                let stop = i + 1 < members.count ? members[i + 1].start - 1 : end   // before the next member's comma
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[members[i].start..<stop]))
                written = true
            }
        }
        bytes.removeSubrange(first...)
        bytes.append(contentsOf: scratch)
    }

    /// Reused by `sortMembers`, so reordering an object allocates nothing once it has grown.
    private var scratch: [UInt8] = []
}

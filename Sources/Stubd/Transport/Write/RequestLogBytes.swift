#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A request's log line built straight into bytes (issue 61): `2026-11-22T16:02:41.123Z info GET /a
/// 200 route=… 0.31ms`, or the same fields as one JSON object. What the `String`-built lines were,
/// byte for byte, at a few copies a line: each field's UTF-8 copied once into the caller's reused
/// buffer, numbers written as digits, the timestamp's text made once a second and its milliseconds
/// rewritten only when they change. A line that needs escaping (a control character, a backslash;
/// a quote in JSON) or cutting (past `maxField` bytes) takes the slow path, which is the old one.
/// One per writer thread: it keeps the last timestamp.
package struct RequestLogBytes {
    /// Paths and other fields longer than this are cut, with a marker saying how much.
    package static let maxField = 2_048

    /// The second `stamp` was made for, and its milliseconds.
    private var stampSecond = Int.min, stampMillis = -1
    /// `2026-11-22T16:02:41.123Z`.
    private var stamp: [UInt8] = []
    /// A line's message, for the JSON `message`.
    private let scratch = LogBuffer(capacity: 4_096)

    package init() {}

    /// `2026-11-22T16:02:41.123Z` for `interval` (seconds since 1970): the milliseconds cut, not rounded.
    package mutating func appendTimestamp(_ interval: Double, to out: LogBuffer) {
        let epoch = Int(interval.rounded(.down))
        let millis = min(999, max(0, Int((interval - Double(epoch)) * 1000)))
        if epoch != stampSecond {
            var t = time_t(epoch)
            var parts = tm()
            gmtime_r(&t, &parts)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                              Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            stamp = Array(text.utf8) + Array(".000Z".utf8)
            stampSecond = epoch
            stampMillis = -1
        }
        if millis != stampMillis {
            let end = stamp.count - 1
            stamp[end - 3] = UInt8(truncatingIfNeeded: 0x30 + millis / 100)
            stamp[end - 2] = UInt8(truncatingIfNeeded: 0x30 + millis / 10 % 10)
            stamp[end - 1] = UInt8(truncatingIfNeeded: 0x30 + millis % 10)
            stampMillis = millis
        }
        out.append(stamp)
    }

    /// The text line, its newline included.
    package mutating func appendText(_ line: RequestLogLine, time interval: Double, to out: LogBuffer) {
        appendTimestamp(interval, to: out)
        Self.append(" info ", to: out)
        let start = out.count
        Self.appendMessage(line, to: out)
        if out.count - start > Self.maxField || Self.needsEscape(UnsafeRawBufferPointer(rebasing: out.bytes[start...]), json: false) {
            let message = Array(out.bytes[start...])
            out.truncate(to: start)
            Self.appendEscapedText(message, to: out)
        }
        out.append(0x0A)
    }

    /// The JSON line, its newline included: the fields sorted by name, every value a string.
    package mutating func appendJSON(_ line: RequestLogLine, time interval: Double, to out: LogBuffer) {
        Self.append(#"{"latency_ms":""#, to: out)
        Self.appendMilliseconds(line.latencyMicroseconds, to: out)
        Self.append(#"","level":"info","message":"#, to: out)
        scratch.removeAll()
        Self.appendMessage(line, to: scratch)
        Self.appendJSONString(bytes: scratch.bytes, to: out)
        Self.append(#","method":"#, to: out)
        Self.appendJSONString(line.method, to: out)
        if let note = line.note {
            Self.append(#","note":"#, to: out)
            Self.appendJSONString(note, to: out)
        }
        Self.append(#","path":"#, to: out)
        Self.appendJSONString(line.path, to: out)
        if let quota = line.quota {
            Self.append(#","quota":"#, to: out)
            Self.appendJSONString(quota, to: out)
        }
        if let route = line.route {
            Self.append(#","route":"#, to: out)
            Self.appendJSONString(route, to: out)
        }
        if !line.session.isEmpty {
            Self.append(#","session":"#, to: out)
            Self.appendJSONString(line.session, to: out)
        }
        Self.append(#","status":""#, to: out)
        Self.appendDecimal(line.status, to: out)
        Self.append(#"","time":""#, to: out)
        appendTimestamp(interval, to: out)
        Self.append("\"}\n", to: out)
    }

    /// `GET /api/KEY/x.json 200 route=… 0.31ms quota="…" note`, unescaped.
    package static func appendMessage(_ line: RequestLogLine, to out: LogBuffer) {
        append(line.method, to: out)
        out.append(0x20)
        append(line.path, to: out)
        out.append(0x20)
        if line.status == 0 { out.append(UInt8(ascii: "-")) } else { appendDecimal(line.status, to: out) }
        if let route = line.route {
            append(" route=", to: out)
            append(route, to: out)
        } else if !line.isAdmin && !line.isForwarded {
            append(" unmatched", to: out)
        }
        if !line.session.isEmpty {
            append(" session=", to: out)
            append(line.session, to: out)
        }
        // `0.31ms`: whole milliseconds, then hundredths (cut, not rounded).
        let micro = line.latencyMicroseconds
        out.append(0x20)
        appendDecimal(micro / 1000, to: out)
        out.append(UInt8(ascii: "."))
        let hundredths = micro % 1000 / 10
        if hundredths >= 0 && hundredths < 10 { out.append(0x30) }
        appendDecimal(hundredths, to: out)
        append("ms", to: out)
        if let quota = line.quota {
            append(" quota=\"", to: out)
            append(quota, to: out)
            out.append(UInt8(ascii: "\""))
        }
        if let note = line.note {
            out.append(0x20)
            append(note, to: out)
        }
    }

    /// `String(Double(micro) / 1000)` (`0.31`, `1.0`, `120.512`) without the `Double`'s printing.
    static func appendMilliseconds(_ micro: Int, to out: LogBuffer) {
        // Below 10^15 µs the quotient's shortest decimal is the exact one; past it (or below 0), print the Double.
        guard micro >= 0, micro < 1_000_000_000_000_000 else { return append(String(Double(micro) / 1000), to: out) }
        appendDecimal(micro / 1000, to: out)
        out.append(UInt8(ascii: "."))
        var fraction = micro % 1000
        if fraction == 0 { return out.append(0x30) }
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        if digits == 3 && fraction < 100 { out.append(0x30) }
        if digits >= 2 && fraction < 10 { out.append(0x30) }
        appendDecimal(fraction, to: out)
    }

    /// `String(value)`'s digits.
    @inline(__always)
    static func appendDecimal(_ value: Int, to out: LogBuffer) {
        guard value >= 0 else { return append(String(value), to: out) }
        if value < 10 { return out.append(UInt8(truncatingIfNeeded: 0x30 + value)) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: Int's 19 digits fit
        withUnsafeMutableBytes(of: &digits) { raw in
            var rest = value
            var i = 24
            while rest > 0 { i -= 1; raw[i] = UInt8(truncatingIfNeeded: 0x30 + rest % 10); rest /= 10 }
            out.append(UnsafeRawBufferPointer(rebasing: raw[i...]))
        }
    }

    /// A string's UTF-8 as it is.
    @inline(__always)
    static func append(_ text: String, to out: LogBuffer) { out.append(text) }

    /// Whether `bytes[start...]` holds a byte a line must escape: a control character or a
    /// backslash (and in JSON a quote).
    /// Eight bytes a step (a byte below 0x20, or equal to one of three, found with the word tricks
    /// of "Bit Twiddling Hacks", never missed; a false alarm would only take the slow path): a byte
    /// at a time cost ~13 instructions a byte.
    static func needsEscape(_ bytes: UnsafeRawBufferPointer, json: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = (json ? 0x22 : 0x5C) &* ones
        var i = 0
        while i + 8 <= bytes.count {
            let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let control = (w &- 0x20 &* ones) & ~w & highs
            let backslash = w ^ (0x5C &* ones), delete = w ^ (0x7F &* ones), quoted = w ^ quote
            let equal = ((backslash &- ones) & ~backslash | (delete &- ones) & ~delete | (quoted &- ones) & ~quoted) & highs
            if control | equal != 0 { return true }
            i += 8
        }
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x20 || b == 0x5C || b == 0x7F || (json && b == 0x22) { return true }
            i += 1
        }
        return false
    }

    /// Text as it is, but control characters escaped (a `%0A` in a path must not start a new
    /// line) and anything past `maxField` bytes cut with a marker.
    package static func appendEscapedText(_ text: [UInt8], to out: LogBuffer) {
        var written = 0
        for byte in text {
            // Cut at the start of a character, never inside one.
            if written >= maxField && byte & 0xC0 != 0x80 {
                append("…[cut \(text.count - written) bytes]", to: out)
                return
            }
            written += 1
            switch byte {
            case 0x5C: append(#"\\"#, to: out)
            case 0x0A: append(#"\n"#, to: out)
            case 0x0D: append(#"\r"#, to: out)
            case 0x09: append(#"\t"#, to: out)
            case 0..<0x20, 0x7F:
                let hex = String(byte, radix: 16)
                append("\\x" + (hex.count < 2 ? "0" : "") + hex, to: out)
            default: out.append(byte)
            }
        }
    }

    /// A JSON string literal of `text`'s UTF-8: copied at once when nothing in it needs escaping or cutting.
    static func appendJSONString(bytes text: UnsafeRawBufferPointer, to out: LogBuffer) {
        if text.count <= maxField && !needsEscape(text, json: true) {
            out.append(UInt8(ascii: "\""))
            out.append(text)
            out.append(UInt8(ascii: "\""))
        } else {
            appendJSONStringSlowly(String(decoding: text, as: UTF8.self), to: out)
        }
    }

    /// A JSON string literal of `text`.
    static func appendJSONString(_ text: String, to out: LogBuffer) {
        let simple = text.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            guard buffer.count <= maxField, !needsEscape(UnsafeRawBufferPointer(buffer), json: true) else { return false }
            out.append(UInt8(ascii: "\""))
            out.append(UnsafeRawBufferPointer(buffer))
            out.append(UInt8(ascii: "\""))
            return true
        }
        if simple != true { appendJSONStringSlowly(text, to: out) }
    }

    /// A JSON string literal of `text` (cut past `maxField` bytes, with the marker inside the string).
    package static func appendJSONStringSlowly(_ text: String, to out: LogBuffer) {
        out.append(UInt8(ascii: "\""))
        var written = 0
        for scalar in text.unicodeScalars {
            if written >= maxField {
                append("…[cut \(text.utf8.count - written) bytes]", to: out)
                break
            }
            written += String(scalar).utf8.count
            switch scalar {
            case "\"": append(#"\""#, to: out)
            case "\\": append(#"\\"#, to: out)
            case "\n": append(#"\n"#, to: out)
            case "\r": append(#"\r"#, to: out)
            case "\t": append(#"\t"#, to: out)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                append("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex, to: out)
            default: append(String(scalar), to: out)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// The bytes of a batch of log lines: appended with a capacity check and a `memcpy`, where an
/// `Array`'s generic `append(contentsOf:)` cost ~90 instructions a field; emptied by resetting its
/// count. The writer thread's alone.
package final class LogBuffer {
    // Used by one thread at a time (the writer's): the runtime's exclusivity check on every append
    // (`swift_beginAccess`, ~75 instructions) buys nothing.
    @exclusivity(unchecked) package private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer

    package init(capacity: Int = 64 * 1_024) {
        self.capacity = max(capacity, 16)
        base = .allocate(byteCount: self.capacity, alignment: 1)
    }

    deinit { base.deallocate() }

    /// What is written so far; valid until the next append.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
    package var array: [UInt8] { Array(bytes) }

    package func removeAll() { count = 0 }
    package func truncate(to newCount: Int) { count = min(count, max(0, newCount)) }

    @inline(__always)
    package func append(_ byte: UInt8) {
        if count == capacity { grow(count + 1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    package func append(_ more: UnsafeRawBufferPointer) {
        guard let source = more.baseAddress, more.count > 0 else { return }
        if count + more.count > capacity { grow(count + more.count) }
        (base + count).copyMemory(from: source, byteCount: more.count)
        count += more.count
    }

    package func append(_ more: [UInt8]) { more.withUnsafeBytes { append($0) } }

    /// A string's UTF-8 as it is.
    @inline(__always)
    package func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil { append(Array(text.utf8)) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import Stubd
import StubdCore
import StubdEngine

/// Turns records into lines: `2026-11-22T16:02:41.123Z info GET /a 200 route=… 0.31ms`, or one JSON
/// object per line with the same fields. Used by the writer thread only.
struct LineFormatter {
    let json: Bool
    let masking: SecretMasker
    /// The formatted second last used ("2026-11-22T16:02:41"): a new one is made once a second.
    private var second: (epoch: Int, text: [UInt8]) = (-1, [])
    /// Paths and other fields longer than this are cut, with a marker saying how much.
    static let maxField = 2_048

    init(json: Bool, masking: SecretMasker = SecretMasker()) {
        self.json = json
        self.masking = masking
    }

    mutating func append(_ record: Record, to out: inout [UInt8]) {
        switch record {
        case .request(var line, let time):
            if !masking.isEmpty {
                line.path = masking.mask(line.path)
                line.note = line.note.map(masking.mask)
            }
            var fields: [(String, String)] = [("method", line.method), ("path", line.path), ("status", String(line.status)),
                                             ("latency_ms", String(Double(line.latencyMicroseconds) / 1000))]
            if let route = line.route { fields.append(("route", route)) }
            if !line.session.isEmpty { fields.append(("session", line.session)) }
            if let quota = line.quota { fields.append(("quota", quota)) }
            if let note = line.note { fields.append(("note", note)) }
            append(time: time, level: .info, message: Self.message(line), fields: fields, to: &out)
        case let .message(level, message, metadata, time):
            append(time: time, level: level, message: masking.mask(message),
                   fields: metadata.map { ($0.key, masking.mask($0.value.description)) }, to: &out)
        }
    }

    typealias Record = LogWriter.Record

    /// The text line's message: `GET /api/KEY/x.json 200 route=… 0.31ms quota="…"`.
    static func message(_ line: RequestLogLine) -> String {
        var text = "\(line.method) \(line.path) \(line.status == 0 ? "-" : String(line.status))"
        if let route = line.route { text += " route=\(route)" } else if !line.isAdmin && !line.isForwarded { text += " unmatched" }
        if !line.session.isEmpty { text += " session=\(line.session)" }
        let micro = line.latencyMicroseconds
        text += " \(micro / 1000).\(String(micro % 1000 / 10).leftPadded(to: 2))ms"
        if let quota = line.quota { text += " quota=\"\(quota)\"" }
        if let note = line.note { text += " \(note)" }
        return text
    }

    private mutating func append(time: Date, level: Logger.Level, message: String, fields: [(String, String)],
                                 to out: inout [UInt8]) {
        if json {
            var object = fields + [("time", ""), ("level", level.rawValue), ("message", message)]
            object.sort { $0.0 < $1.0 }
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in object.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendJSONString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                if key == "time" {
                    out.append(UInt8(ascii: "\""))
                    appendTimestamp(time, to: &out)
                    out.append(UInt8(ascii: "\""))
                } else {
                    Self.appendJSONString(value, to: &out)
                }
            }
            out.append(contentsOf: "}\n".utf8)
        } else {
            appendTimestamp(time, to: &out)
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: level.rawValue.utf8)
            out.append(UInt8(ascii: " "))
            Self.appendText(message, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// `2026-11-22T16:02:41.123Z`: the second from a cache, the milliseconds appended.
    private mutating func appendTimestamp(_ time: Date, to out: inout [UInt8]) {
        let interval = time.timeIntervalSince1970
        let epoch = Int(interval.rounded(.down))
        if epoch != second.epoch {
            var t = time_t(epoch)
            var parts = tm()
            gmtime_r(&t, &parts)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                              Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            second = (epoch, Array(text.utf8))
        }
        out.append(contentsOf: second.text)
        let millis = min(999, max(0, Int((interval - Double(epoch)) * 1000)))
        out.append(contentsOf: ".\(String(millis).leftPadded(to: 3))Z".utf8)
    }

    /// Text as it is, but control characters escaped (a `%0A` in a path must not start a new
    /// line) and anything past `maxField` bytes cut with a marker.
    static func appendText(_ text: String, to out: inout [UInt8]) {
        var written = 0
        for byte in text.utf8 {
            // Cut at the start of a character, never inside one.
            if written >= maxField && byte & 0xC0 != 0x80 {
                out.append(contentsOf: "…[cut \(text.utf8.count - written) bytes]".utf8)
                return
            }
            written += 1
            switch byte {
            case 0x5C: out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F: out.append(contentsOf: "\\x\(String(byte, radix: 16).leftPadded(to: 2))".utf8)
            default: out.append(byte)
            }
        }
    }

    /// A JSON string literal of `text` (cut past `maxField` bytes, with the marker inside the string).
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var written = 0
        for scalar in text.unicodeScalars {
            if written >= maxField {
                out.append(contentsOf: "…[cut \(text.utf8.count - written) bytes]".utf8)
                break
            }
            written += String(scalar).utf8.count
            switch scalar {
            case "\"": out.append(contentsOf: #"\""#.utf8)
            case "\\": out.append(contentsOf: #"\\"#.utf8)
            case "\n": out.append(contentsOf: #"\n"#.utf8)
            case "\r": out.append(contentsOf: #"\r"#.utf8)
            case "\t": out.append(contentsOf: #"\t"#.utf8)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out.append(contentsOf: "\\u\(String(scalar.value, radix: 16).leftPadded(to: 4))".utf8)
            default: out.append(contentsOf: String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

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
/// object per line with the same fields. Used by the writer thread only. A request's line is built
/// straight into the batch's bytes (`RequestLogBytes`: no `String` made, the timestamp's text reused
/// within its millisecond); stubd's own messages, a few a minute, go the `String` way.
struct LineFormatter {
    let json: Bool
    let masking: SecretMasker
    /// The request lines' builder, whose timestamp the messages' lines share.
    private var bytes = RequestLogBytes()
    /// Paths and other fields longer than this are cut, with a marker saying how much.
    static let maxField = RequestLogBytes.maxField

    init(json: Bool, masking: SecretMasker = SecretMasker()) {
        self.json = json
        self.masking = masking
    }

    /// Takes the record: its fields are read where they lie, not copied out of the enum.
    mutating func append(_ record: consuming Record, to out: LogBuffer) {
        switch consume record {
        case .request(let line, let time):
            if masking.isEmpty {
                appendRequest(line, time: time, to: out)
            } else {
                var line = line
                line.path = masking.mask(line.path)
                line.note = line.note.map(masking.mask)
                appendRequest(line, time: time, to: out)
            }
        case let .message(level, message, metadata, time):
            append(time: time, level: level, message: masking.mask(message),
                   fields: metadata.map { ($0.key, masking.mask($0.value.description)) }, to: out)
        case .taken:
            break
        }
    }

    private mutating func appendRequest(_ line: RequestLogLine, time: Date, to out: LogBuffer) {
        if json { bytes.appendJSON(line, time: time.timeIntervalSince1970, to: out) } else {
            bytes.appendText(line, time: time.timeIntervalSince1970, to: out)
        }
    }

    typealias Record = LogWriter.Record

    private mutating func append(time: Date, level: Logger.Level, message: String, fields: [(String, String)],
                                 to out: LogBuffer) {
        if json {
            var object = fields + [("time", ""), ("level", level.rawValue), ("message", message)]
            object.sort { $0.0 < $1.0 }
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in object.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendJSONString(key, to: out)
                out.append(UInt8(ascii: ":"))
                if key == "time" {
                    out.append(UInt8(ascii: "\""))
                    bytes.appendTimestamp(time.timeIntervalSince1970, to: out)
                    out.append(UInt8(ascii: "\""))
                } else {
                    Self.appendJSONString(value, to: out)
                }
            }
            out.append("}\n")
        } else {
            bytes.appendTimestamp(time.timeIntervalSince1970, to: out)
            out.append(UInt8(ascii: " "))
            out.append(level.rawValue)
            out.append(UInt8(ascii: " "))
            Self.appendText(message, to: out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// Text as it is, but control characters escaped (a `%0A` in a path must not start a new
    /// line) and anything past `maxField` bytes cut with a marker.
    static func appendText(_ text: String, to out: LogBuffer) {
        RequestLogBytes.appendEscapedText(Array(text.utf8), to: out)
    }

    /// A JSON string literal of `text` (cut past `maxField` bytes, with the marker inside the string).
    static func appendJSONString(_ text: String, to out: LogBuffer) {
        RequestLogBytes.appendJSONStringSlowly(text, to: out)
    }
}

import Foundation
@testable import Stubd
import StubdCore
import Testing

/// The request log's lines built into bytes (`RequestLogBytes`, issue 61) against the `String`-built
/// formatter they replaced, kept here as `Reference` (the old `LineFormatter`'s request path, as it
/// was): the same bytes for every line, text and JSON, including escapes, cuts, odd statuses and
/// latencies, and timestamps across seconds. `LogLineBytesTests` checks the lines `stubd serve` writes.
@Suite struct RequestLogBytesTests {
    /// The old formatter's request lines, verbatim but for its record type.
    enum Reference {
        static let maxField = 2_048

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

        static func line(_ line: RequestLogLine, time: Date, json: Bool) -> [UInt8] {
            var fields: [(String, String)] = [("method", line.method), ("path", line.path), ("status", String(line.status)),
                                             ("latency_ms", String(Double(line.latencyMicroseconds) / 1000))]
            if let route = line.route { fields.append(("route", route)) }
            if !line.session.isEmpty { fields.append(("session", line.session)) }
            if let quota = line.quota { fields.append(("quota", quota)) }
            if let note = line.note { fields.append(("note", note)) }
            var out: [UInt8] = []
            let message = message(line)
            if json {
                var object = fields + [("time", ""), ("level", "info"), ("message", message)]
                object.sort { $0.0 < $1.0 }
                out.append(UInt8(ascii: "{"))
                for (i, (key, value)) in object.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    appendJSONString(key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    if key == "time" {
                        out.append(UInt8(ascii: "\""))
                        appendTimestamp(time, to: &out)
                        out.append(UInt8(ascii: "\""))
                    } else {
                        appendJSONString(value, to: &out)
                    }
                }
                out.append(contentsOf: "}\n".utf8)
            } else {
                appendTimestamp(time, to: &out)
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: "info".utf8)
                out.append(UInt8(ascii: " "))
                appendText(message, to: &out)
                out.append(UInt8(ascii: "\n"))
            }
            return out
        }

        static func appendTimestamp(_ time: Date, to out: inout [UInt8]) {
            let interval = time.timeIntervalSince1970
            let epoch = Int(interval.rounded(.down))
            var t = time_t(epoch)
            var parts = tm()
            gmtime_r(&t, &parts)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                              Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            out.append(contentsOf: Array(text.utf8))
            let millis = min(999, max(0, Int((interval - Double(epoch)) * 1000)))
            out.append(contentsOf: ".\(String(millis).leftPadded(to: 3))Z".utf8)
        }

        static func appendText(_ text: String, to out: inout [UInt8]) {
            var written = 0
            for byte in text.utf8 {
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

    static func line(method: String = "GET", path: String, status: Int = 200, route: String? = nil, session: String = "",
                     quota: String? = nil, micro: Int = 310, admin: Bool = false, note: String? = nil, forwarded: Bool = false) -> RequestLogLine {
        var line = RequestLogLine(method: method, path: path, status: status, route: route, session: session, quota: quota,
                                  latencyMicroseconds: micro, isAdmin: admin, note: note)
        line.isForwarded = forwarded
        return line
    }

    /// The lines a server writes, and the ones it should never have to but might.
    static let lines: [RequestLogLine] = [
        line(path: "/bench/payload.json", route: "GET /bench/payload.json"),
        line(path: "/missing", status: 404, micro: 5),
        line(path: "/api/K/x.json", status: 429, route: "GET /api/{key}/x.json", quota: "tight exceeded, retry in 39s", micro: 1_000),
        line(path: "/__s/alice/ok.json", route: "GET /ok.json", session: "alice", micro: 123_456),
        line(path: "/__stubd/health", micro: 0, admin: true),
        line(path: "/drop", status: 0, route: "GET /drop", note: "fault connection_reset"),
        line(method: "POST", path: "/x", status: 502, micro: 999_999, note: "forwarded: connection refused", forwarded: true),
        line(method: "-", path: "-", status: 400, micro: 0),
        line(path: "/a\\b/\u{00E9}\u{1F600}?q=\"1\"", status: 404, micro: 10),
        line(path: "/ctl/\u{1B}[31m/\n/\r/\t/\u{7F}/\u{0}", status: 404, micro: 99),
        line(path: "/" + String(repeating: "L", count: 2_100), status: 404),
        line(path: "/" + String(repeating: "é", count: 1_100), status: 404, route: "R", session: "s", quota: "q", note: "n"),
        line(path: "/" + String(repeating: "L", count: 2_030) + "\u{1F600}\u{1F600}tail", status: 404),
        line(path: "/x", status: -3, micro: -1_505, note: "odd"),
        line(path: "/x", status: 99_999, micro: Int.max),
        line(path: "/x", micro: 1_000_000_000_000_001),
        line(path: "/x", route: String(repeating: "r", count: 3_000), session: String(repeating: "s", count: 2_049)),
    ]

    static let times: [Date] = [Date(timeIntervalSince1970: 1_795_000_000.123), Date(timeIntervalSince1970: 1_795_000_000.1239),
                                Date(timeIntervalSince1970: 1_795_000_000.999_9), Date(timeIntervalSince1970: 1_795_000_001),
                                Date(timeIntervalSince1970: 1_795_000_001.5), Date(timeIntervalSince1970: 0),
                                Date(timeIntervalSince1970: 951_782_400.01), Date()]

    @Test(arguments: [false, true])
    func everyLineIsTheBytesTheStringBuiltOneWas(json: Bool) {
        var bytes = RequestLogBytes()
        let out = LogBuffer(capacity: 64)
        // One builder for all, as the writer thread keeps one: its cached second and milliseconds must not leak between lines.
        for time in Self.times + Self.times.reversed() {
            for line in Self.lines {
                out.removeAll()
                if json { bytes.appendJSON(line, time: time.timeIntervalSince1970, to: out) } else {
                    bytes.appendText(line, time: time.timeIntervalSince1970, to: out)
                }
                let expected = Reference.line(line, time: time, json: json)
                #expect(out.array == expected, "\(String(decoding: out.array, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
            }
        }
    }

    /// `String(Double(micro) / 1000)`, written without the `Double`.
    @Test func latencyInJSONIsTheDoublesShortestDecimal() {
        var micros = Array(0...2_100) + [9_999, 10_000, 10_010, 123_450, 999_999_999, 1_000_000_000_000, 999_999_999_999_999, -1, -1_500]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 { micros.append(Int.random(in: 0..<1_000_000_000_000_000, using: &generator)) }
        for micro in micros {
            let out = LogBuffer(capacity: 16)
            RequestLogBytes.appendMilliseconds(micro, to: out)
            #expect(String(decoding: out.array, as: UTF8.self) == String(Double(micro) / 1000), "\(micro)")
        }
    }

    /// The eight-bytes-a-step scan finds every byte a line must escape, wherever it lies.
    @Test func theWordScanFindsWhatTheByteScanFinds() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x41, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &generator)
            var bytes = [UInt8](repeating: 0x61, count: count)
            // Mostly plain text with a byte or two from the edges of each range.
            for _ in 0..<Int.random(in: 0...2, using: &generator) where count > 0 {
                bytes[Int.random(in: 0..<count, using: &generator)] = alphabet.randomElement(using: &generator)!
            }
            for json in [false, true] {
                let naive = bytes.contains { $0 < 0x20 || $0 == 0x5C || $0 == 0x7F || (json && $0 == 0x22) }
                #expect(bytes.withUnsafeBytes { RequestLogBytes.needsEscape($0, json: json) } == naive, "\(bytes) json \(json)")
            }
        }
    }
}

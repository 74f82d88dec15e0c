import Foundation
import StubdEngine

/// The `format` values stubd checks; any other format is an annotation and passes.
///
/// String formats pass any non-string (JSON Schema's rule); the number formats of OpenAPI
/// (`int32`, `int64`, `float`, `double`) pass any non-number.
enum SchemaFormat: String, CaseIterable {
    case dateTime = "date-time"
    case date
    case uuid
    case email
    case uri
    case int32, int64, float, double
    case byte

    /// A number's width (int32, int64, float, double): checked whatever `SchemaFormatMode` says.
    var isNumberWidth: Bool {
        switch self {
        case .int32, .int64, .float, .double: return true
        default: return false
        }
    }

    /// A date a generated client decodes into its date type, and fails on when it is not one.
    var decodesIntoDate: Bool { self == .dateTime || self == .date }

    /// Why a value that breaks the format matters though `format` only describes most strings, and
    /// how to let it pass; nil for the formats that are only checked when asked.
    var consequence: String? {
        switch self {
        case .dateTime:
            return "a Swift client decodes a date-time into a Date and fails on this (swift-openapi-generator's client, JSONDecoder's .iso8601)"
                + "; `--formats annotate-all` takes it as a description"
        case .date:
            return "a client that decodes a date into its date type fails on this; `--formats annotate-all` takes it as a description"
        default:
            return nil
        }
    }

    /// What a valid value looks like, for the message.
    var expectation: String {
        switch self {
        case .dateTime: return "an RFC 3339 date-time such as 2024-05-01T12:00:00Z"
        case .date: return "an RFC 3339 full-date such as 2024-05-01"
        case .uuid: return "a UUID such as 123e4567-e89b-12d3-a456-426614174000"
        case .email: return "an email address such as name@example.com"
        case .uri: return "an absolute URI such as https://example.com/path"
        case .int32: return "an integer from -2147483648 to 2147483647"
        case .int64: return "an integer from -9223372036854775808 to 9223372036854775807"
        case .float: return "a number within a 32-bit float's range"
        case .double: return "a number"
        case .byte: return "base64-encoded data"
        }
    }

    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.int32, .number(let n)): return n.rounded() == n && n >= -2147483648 && n <= 2147483647
        // 2^63 is the Double nearest Int64.max: every integer from 2^63 − 512 up rounds to it, so a
        // Double cannot say whether the value written was in range. It is taken (a valid int64 that an
        // Int64 client sends is never refused). Where the number's literal was kept (parameters and
        // request bodies), SchemaEvaluator judges its digits instead, exactly.
        case (.int64, .number(let n)): return n.rounded() == n && n >= -9223372036854775808 && n <= 9223372036854775808
        case (.float, .number(let n)): return abs(n) <= Double(Float.greatestFiniteMagnitude)
        case (.double, .number): return true
        case (_, .number): return true
        case (.dateTime, .string(let s)): return Self.isDateTime(Array(s.utf8))
        case (.date, .string(let s)): return Self.isDate(Array(s.utf8))
        case (.uuid, .string(let s)): return Self.isUUID(Array(s.utf8))
        case (.email, .string(let s)): return Self.isEmail(s)
        case (.uri, .string(let s)): return Self.isURI(s)
        case (.byte, .string(let s)): return Self.isBase64(Array(s.utf8))
        default: return true
        }
    }

    // MARK: RFC 3339

    private static func digits(_ b: [UInt8], _ from: Int, _ count: Int) -> Int? {
        guard from + count <= b.count else { return nil }
        var value = 0
        for i in from..<from + count {
            guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
            value = value * 10 + Int(b[i] - 0x30)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `full-date`: exactly ten ASCII characters naming a real day.
    private static func isDate(_ b: [UInt8]) -> Bool {
        b.count == 10 && fullDate(b, 0)
    }

    private static func fullDate(_ b: [UInt8], _ at: Int) -> Bool {
        guard b.count >= at + 10, let y = digits(b, at, 4), b[at + 4] == 0x2D, let m = digits(b, at + 5, 2),
              b[at + 7] == 0x2D, let d = digits(b, at + 8, 2) else { return false }
        return (1...12).contains(m) && d >= 1 && d <= daysIn(month: m, year: y)
    }

    /// `date-time`: full-date "T" time, fractional seconds, then Z or ±hh:mm. A leap second (:60) only
    /// where it falls at 23:59 UTC.
    private static func isDateTime(_ b: [UInt8]) -> Bool {
        guard fullDate(b, 0), b.count >= 20, b[10] == 0x54 || b[10] == 0x74,
              let h = digits(b, 11, 2), b[13] == 0x3A, let mi = digits(b, 14, 2), b[16] == 0x3A,
              let s = digits(b, 17, 2), h <= 23, mi <= 59, s <= 60 else { return false }
        var i = 19
        if b[i] == 0x2E {
            i += 1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            if i == start { return false }
        }
        guard i < b.count else { return false }
        var offsetMinutes = 0
        switch b[i] {
        case 0x5A, 0x7A:
            i += 1
        case 0x2B, 0x2D:
            guard let oh = digits(b, i + 1, 2), i + 3 < b.count, b[i + 3] == 0x3A, let om = digits(b, i + 4, 2),
                  oh <= 23, om <= 59 else { return false }
            offsetMinutes = (oh * 60 + om) * (b[i] == 0x2B ? 1 : -1)
            i += 6
        default:
            return false
        }
        guard i == b.count else { return false }
        if s == 60 {
            let utc = ((h * 60 + mi - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    // MARK: Others

    private static func isHex(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
    }

    /// 8-4-4-4-12 hex digits, any version (RFC 9562 allows future ones).
    private static func isUUID(_ b: [UInt8]) -> Bool {
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if [8, 13, 18, 23].contains(i) { if c != 0x2D { return false } } else if !isHex(c) { return false }
        }
        return true
    }

    /// RFC 5321's mailbox in its common forms: a dot-atom or quoted local part, a host name or an IP literal.
    private static func isEmail(_ s: String) -> Bool {
        guard let at = s.lastIndex(of: "@") else { return false }
        let local = s[..<at], domain = s[s.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty else { return false }
        if local.hasPrefix("\""), local.hasSuffix("\""), local.count >= 2 {
            // A quoted string may hold spaces and specials, but no bare quote or backslash escape of nothing.
        } else {
            let atext = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~.")
            guard local.unicodeScalars.allSatisfy({ atext.contains($0) }), !local.hasPrefix("."), !local.hasSuffix("."),
                  !local.contains("..") else { return false }
        }
        if domain.hasPrefix("["), domain.hasSuffix("]") {
            let literal = domain.dropFirst().dropLast()
            if literal.lowercased().hasPrefix("ipv6:") { return isIPv6(String(literal.dropFirst(5))) }
            return isIPv4(String(literal))
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
        }
    }

    private static func isIPv4(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { p in
            guard let n = Int(p), p.count <= 3, n <= 255, p.allSatisfy(\.isASCII) else { return false }
            return p == "0" || !p.hasPrefix("0")
        }
    }

    private static func isIPv6(_ s: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, s, &address) == 1
    }

    /// RFC 3986 `URI`: a scheme, then only characters a URI may hold, with `%` followed by two hex digits.
    private static func isURI(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard let colon = b.firstIndex(of: 0x3A), colon > 0 else { return false }
        let letter: (UInt8) -> Bool = { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
        let digit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        guard letter(b[0]), b[1..<colon].allSatisfy({ letter($0) || digit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return false }
        // unreserved, gen-delims, sub-delims and '%'.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)
        var i = colon + 1
        while i < b.count {
            let c = b[i]
            guard allowed.contains(c) else { return false }
            if c == 0x25 {
                guard i + 2 < b.count, isHex(b[i + 1]), isHex(b[i + 2]) else { return false }
                i += 2
            }
            i += 1
        }
        // An authority's brackets hold an IP literal and nothing else; a bracket elsewhere is not allowed.
        let rest = String(decoding: b[(colon + 1)...], as: UTF8.self)
        if rest.hasPrefix("//") {
            let authorityEnd = rest.dropFirst(2).firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
            let authority = rest[rest.index(rest.startIndex, offsetBy: 2)..<authorityEnd]
            let parts = authority.split(separator: "@", omittingEmptySubsequences: false)
            let host = parts.last ?? ""
            if parts.dropLast().contains(where: { $0.contains("[") || $0.contains("]") }) { return false }
            if host.contains("[") || host.contains("]") {
                guard host.hasPrefix("["), let close = host.firstIndex(of: "]") else { return false }
                let port = host[host.index(after: close)...]
                if !port.isEmpty, !(port.hasPrefix(":") && port.dropFirst().allSatisfy(\.isNumber)) { return false }
                let literal = host[host.index(after: host.startIndex)..<close]
                if !literal.hasPrefix("v"), !isIPv6(String(literal)) { return false }
            } else if let portStart = host.lastIndex(of: ":") {
                if !host[host.index(after: portStart)...].allSatisfy({ $0.isASCII && $0.isNumber }) { return false }
            }
            if authority.filter({ $0 == "@" }).count > 1 { return false }
            if rest[authorityEnd...].contains("[") || rest[authorityEnd...].contains("]") { return false }
        } else if rest.contains("[") || rest.contains("]") {
            return false
        }
        return true
    }

    /// RFC 4648 base64 with padding (OpenAPI's `byte`).
    private static func isBase64(_ b: [UInt8]) -> Bool {
        guard b.count % 4 == 0 else { return false }
        var padding = 0
        for (i, c) in b.enumerated() {
            if c == 0x3D {
                padding += 1
                guard i >= b.count - 2 else { return false }
            } else {
                guard padding == 0, (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
                        || c == 0x2B || c == 0x2F else { return false }
            }
        }
        return true
    }
}

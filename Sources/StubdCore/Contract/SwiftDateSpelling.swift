import StubdEngine

/// Whether a `date-time` that keeps to RFC 3339 also decodes in a Swift client: with
/// `JSONDecoder.dateDecodingStrategy = .iso8601` and with swift-openapi-runtime's default
/// transcoder (`ISO8601DateFormatter` with `.withInternetDateTime`), as measured on this project's
/// Linux toolchain by `SwiftDateSpellingTests` (Swift 6.3.1).
///
/// Safe: `2026-01-26T19:00:00Z` and `2026-01-26T19:00:00+01:00` (an upper-case `T`, whole seconds,
/// `Z`/`z` or an offset up to ±18:00). Each of the others fails one decoder or both with
/// `dataCorrupted` and no key path, though RFC 3339 allows it.
package enum SwiftDateSpelling {
    /// Why `text` (a valid RFC 3339 date-time) would not decode in a Swift client; nil when it would.
    package static func problem(_ text: String) -> String? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        if b[10] == 0x74 {
            return "a lower-case 't' between date and time: JSONDecoder's .iso8601 and the generated client's transcoder both refuse it; write 'T'"
        }
        if b[19] == 0x2E {
            return "fractional seconds: the generated client's default transcoder (ISO8601DateFormatter, .withInternetDateTime) refuses them, as does JSONDecoder's .iso8601 on Apple platforms before macOS 15 / iOS 18; write whole seconds, or configure the client for fractions"
        }
        if b[17] == 0x36, b[18] == 0x30 {
            return "a leap second (:60): ISO8601DateFormatter refuses it; write :59"
        }
        if b.count == 25, let hours = Int(String(decoding: b[20...21], as: UTF8.self)), let minutes = Int(String(decoding: b[23...24], as: UTF8.self)),
           hours * 60 + minutes > 18 * 60 {
            return "an offset past ±18:00: JSONDecoder's .iso8601 refuses it"
        }
        return nil
    }
}

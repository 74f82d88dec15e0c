import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine

/// Issue 44 item 5: which RFC 3339 date-times a Swift client decodes, measured here rather than
/// assumed: `SwiftDateSpelling` must call safe exactly what both of the decoders a Swift client uses
/// take on this machine, JSONDecoder's `.iso8601` and `ISO8601DateFormatter()` (swift-openapi-runtime's
/// default transcoder).
@Suite struct SwiftDateSpellingTests {
    struct Wrapped: Decodable { let date: Date }

    static func decodesInSwift(_ text: String) -> Bool {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let json = (try? decoder.decode(Wrapped.self, from: Data(#"{"date": "\#(text)"}"#.utf8))) != nil
        return json && ISO8601DateFormatter().date(from: text) != nil
    }

    @Test(arguments: [
        "2026-01-26T19:00:00Z", "2026-01-26T19:00:00z", "2026-01-26T19:00:00+01:00", "2026-01-26T19:00:00-00:00",
        "2026-01-26T19:00:00+14:00", "2026-01-26T19:00:00-18:00", "2026-01-26T19:00:00+18:01", "2026-01-26T19:00:00-23:59",
        "2026-01-26T19:00:00.123Z", "2026-01-26T19:00:00.0Z", "2026-01-26T19:00:00.123456789+05:30",
        "2026-01-26t21:00:00z", "2026-01-26t21:00:00Z", "2016-12-31T23:59:60Z",
    ])
    func stubdCallsSafeWhatSwiftDecodes(_ text: String) {
        #expect(SchemaFormat.dateTime.accepts(.string(text)), "\(text) should be RFC 3339")
        #expect((SwiftDateSpelling.problem(text) == nil) == Self.decodesInSwift(text),
                "\(text): stubd says \(SwiftDateSpelling.problem(text) ?? "safe"), Swift \(Self.decodesInSwift(text) ? "decodes" : "does not")")
    }
}

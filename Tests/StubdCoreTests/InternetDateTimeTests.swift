import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 38, item 16: the clock's times are read field by field (RFC 3339), exactly to the
/// microsecond, and a field out of its range is refused by name rather than rolled over.
@Suite struct InternetDateTimeTests {
    /// Expected seconds since 1970 (Python's `datetime.fromisoformat(…).timestamp()`), microseconds apart.
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0, 0),
        ("2016-08-30T00:00:00-04:00", 1_472_529_600, 0),
        ("2016-08-30T00:00:00-0400", 1_472_529_600, 0),
        ("2000-02-29T12:00:00+05:30", 951_805_800, 0),
        ("2026-01-01t14:00:00z", 1_767_276_000, 0),
        ("2026-01-01T14:00:00.12345678912Z", 1_767_276_000, 123_457),
        ("2026-01-01T14:00:00.5Z", 1_767_276_000, 500_000),
        ("2026-01-01T14:00:00.0000004Z", 1_767_276_000, 0),
        ("2024-12-31T23:59:59.9999996Z", 1_735_689_600, 0),
        ("1600-03-01T00:00:00Z", -11_670_912_000, 0),
        ("9999-12-31T23:59:59Z", 253_402_300_799, 0),
    ] as [(String, Int, Int)])
    func aValidTimeIsReadToTheMicrosecond(text: String, seconds: Int, microseconds: Int) throws {
        let date = try InternetDateTime(parsing: text).date
        let micros = Int((date.timeIntervalSince1970 * 1e6).rounded())
        #expect(micros == seconds * 1_000_000 + microseconds, "\(text) → \(date.timeIntervalSince1970)")
    }

    @Test(arguments: [
        ("2026-02-30T00:00:00Z", "day must be 01 to 28 in 2026-02, got 30"),
        ("2024-02-30T00:00:00Z", "day must be 01 to 29 in 2024-02, got 30"),
        ("2026-04-31T00:00:00Z", "day must be 01 to 30 in 2026-04, got 31"),
        ("2026-13-01T00:00:00Z", "month must be 01 to 12, got 13"),
        ("2026-00-01T00:00:00Z", "month must be 01 to 12, got 0"),
        ("2026-01-01T24:00:00Z", "hour must be 00 to 23, got 24"),
        ("2026-01-01T14:60:00Z", "minute must be 00 to 59, got 60"),
        ("2026-01-01T14:00:60Z", "second must be 00 to 59, got 60"),
        ("2026-01-01T14:00:00+99:00", "offset hours must be 00 to 23, got 99"),
        ("2026-01-01T14:00:00+01:75", "offset minutes must be 00 to 59, got 75"),
        ("2026-01-01T14:00:00", "expected a zone after the time"),
        ("2026-01-01T14:00:00.Z", "expected digits after the '.'"),
        ("2026-01-01T14:00:00Zjunk", "unexpected 'junk' after the zone"),
        ("26-01-01T14:00:00Z", "year must be 4 digits"),
        ("2026-01-01", "expected 'T' between the date and the time"),
        ("", "year must be 4 digits"),
    ] as [(String, String)])
    func aBadFieldIsRefusedByName(text: String, words: String) {
        let error = #expect(throws: InternetDateTimeError.self) { try InternetDateTime(parsing: text) }
        #expect(error?.description.contains(words) == true, "\(text): \(error.map { "\($0)" } ?? "")")
    }

    @Test func aVirtualClockStartOutOfRangeIsALoadProblemNamingTheField() throws {
        let problems = try TempStubs(["stubd.yml": "clock: { virtual: \"2026-02-30T00:00:00Z\" }\n"]).problems()
        #expect(problems.count == 1 && problems[0].message.contains("day must be 01 to 28 in 2026-02") && problems[0].line == 1, "\(problems)")
    }
}

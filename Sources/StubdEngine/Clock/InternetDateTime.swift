package import Foundation

/// An RFC 3339 date-time (`2016-08-30T00:00:00-04:00`, `2026-01-01T14:00:00.5Z`), read field by
/// field. Foundation's ISO 8601 formatter rolls `2026-02-30` over to March 2, takes `+99:00` as an
/// offset, and reads a long fraction through a `Double` (`.12345678912` came out 5 ms early); here
/// each field is checked against its range and named when it is out of it, and the fraction is
/// rounded to the microsecond, the resolution of a session's clock.
package struct InternetDateTime: Sendable, Equatable {
    package let date: Date

    package init(parsing text: String) throws(InternetDateTimeError) {
        var scanner = Scanner(text)
        let year = try scanner.digits(4, "year")
        try scanner.expect("-", after: "year")
        let month = try scanner.digits(2, "month")
        try scanner.expect("-", after: "month")
        let day = try scanner.digits(2, "day")
        guard scanner.take("T") || scanner.take("t") || scanner.take(" ") else {
            throw InternetDateTimeError(text: text, problem: "expected 'T' between the date and the time")
        }
        let hour = try scanner.digits(2, "hour")
        try scanner.expect(":", after: "hour")
        let minute = try scanner.digits(2, "minute")
        try scanner.expect(":", after: "minute")
        let second = try scanner.digits(2, "second")
        var microseconds = 0
        if scanner.take(".") {
            let fraction = scanner.run { $0.isASCIIDigit }
            guard !fraction.isEmpty else { throw InternetDateTimeError(text: text, problem: "expected digits after the '.' of the seconds") }
            // Six digits, rounded half up by the seventh; later digits cannot change that rounding
            // but for a seventh digit of exactly 5, where half up is what is wanted anyway.
            let padded = Array((fraction + "0000000").prefix(7))
            microseconds = Int(String(padded.prefix(6)))! + (padded[6] >= "5" ? 1 : 0)
        }
        var offsetSeconds = 0
        if scanner.take("Z") || scanner.take("z") {
        } else if let sign = scanner.take(anyOf: "+-") {
            let offsetHours = try scanner.digits(2, "offset hours")
            _ = scanner.take(":")
            let offsetMinutes = try scanner.digits(2, "offset minutes")
            guard offsetHours <= 23 else { throw InternetDateTimeError(text: text, problem: "offset hours must be 00 to 23, got \(offsetHours)") }
            guard offsetMinutes <= 59 else { throw InternetDateTimeError(text: text, problem: "offset minutes must be 00 to 59, got \(offsetMinutes)") }
            offsetSeconds = (sign == "-" ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            throw InternetDateTimeError(text: text, problem: "expected a zone after the time: Z or an offset such as -04:00")
        }
        guard scanner.atEnd else { throw InternetDateTimeError(text: text, problem: "unexpected '\(scanner.rest)' after the zone") }

        guard (1...12).contains(month) else { throw InternetDateTimeError(text: text, problem: "month must be 01 to 12, got \(month)") }
        let days = InternetDateTime.days(inMonth: month, of: year)
        guard (1...days).contains(day) else {
            throw InternetDateTimeError(text: text, problem: "day must be 01 to \(days) in \(String(format: "%04d-%02d", year, month)), got \(day)")
        }
        guard hour <= 23 else { throw InternetDateTimeError(text: text, problem: "hour must be 00 to 23, got \(hour)") }
        guard minute <= 59 else { throw InternetDateTimeError(text: text, problem: "minute must be 00 to 59, got \(minute)") }
        // A leap second (60) is not a time a clock counting seconds since 1970 can show.
        guard second <= 59 else { throw InternetDateTimeError(text: text, problem: "second must be 00 to 59, got \(second)") }

        let seconds = InternetDateTime.daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + hour * 3600 + minute * 60 + second - offsetSeconds
        // Whole seconds and microseconds apart: a Double of the sum would round the microseconds away.
        date = Date(timeIntervalSince1970: Double(seconds) + Double(microseconds) / 1e6)
    }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Reads `text` left to right; every failure names the field it was reading.
    private struct Scanner {
        let text: String
        let characters: [Character]
        var position = 0

        init(_ text: String) {
            self.text = text
            characters = Array(text)
        }

        var atEnd: Bool { position == characters.count }
        var rest: String { String(characters[position...]) }

        mutating func digits(_ count: Int, _ field: String) throws(InternetDateTimeError) -> Int {
            let run = characters[position...].prefix(count)
            guard run.count == count, run.allSatisfy(\.isASCIIDigit) else {
                throw InternetDateTimeError(text: text, problem: "\(field) must be \(count) digits")
            }
            position += count
            return Int(String(run))!
        }

        mutating func expect(_ separator: Character, after field: String) throws(InternetDateTimeError) {
            guard take(separator) else { throw InternetDateTimeError(text: text, problem: "expected '\(separator)' after the \(field)") }
        }

        mutating func take(_ c: Character) -> Bool {
            guard position < characters.count, characters[position] == c else { return false }
            position += 1
            return true
        }

        mutating func take(anyOf set: String) -> Character? {
            guard position < characters.count, set.contains(characters[position]) else { return nil }
            position += 1
            return characters[position - 1]
        }

        mutating func run(while accepts: (Character) -> Bool) -> String {
            let start = position
            while position < characters.count, accepts(characters[position]) { position += 1 }
            return String(characters[start..<position])
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

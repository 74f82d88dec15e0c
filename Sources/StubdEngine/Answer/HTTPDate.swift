import Foundation

/// HTTP's date format, IMF-fixdate (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`), written and
/// read by hand: whole seconds in UTC, no formatter or locale to set up.
package enum HTTPDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `seconds` since 1970 as IMF-fixdate.
    static func format(_ seconds: Int) -> String {
        let day = seconds.floorDivided(by: 86_400)
        let time = seconds - day * 86_400
        let (y, m, d) = civil(fromDays: day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[((day % 7) + 7) % 7]), \(two(d)) \(months[m - 1]) \(y) \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    /// Seconds since 1970 of an IMF-fixdate; nil for anything else (the obsolete RFC 850 and asctime
    /// forms included: a condition that cannot be read is ignored, RFC 9110 §13.1.3).
    static func parse(_ text: Substring) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              let d = Int(parts[1]), (1...31).contains(d), let m = months.firstIndex(of: String(parts[2])),
              let y = Int(parts[3]), (1...9999).contains(y) else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let h = Int(clock[0]), let mi = Int(clock[1]), let s = Int(clock[2]),
              (0...23).contains(h), (0...59).contains(mi), (0...60).contains(s) else { return nil }
        return InternetDateTime.daysSinceEpoch(year: y, month: m + 1, day: d) * 86_400 + h * 3600 + mi * 60 + s
    }

    // Howard Hinnant's civil-from-days, the inverse of `InternetDateTime.daysSinceEpoch` (proleptic Gregorian).
    private static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = z.floorDivided(by: 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

private extension Int {
    func floorDivided(by divisor: Int) -> Int {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}

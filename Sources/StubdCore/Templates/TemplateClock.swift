import Foundation

/// `{{now}}`: the session's clock, moved by `offset`, written in `format` and `timezone`.
enum TemplateClock {
    /// Formatters are costly to make (~tens of µs) and these repeat: one per format and zone,
    /// each used under the lock (Foundation's formatters are not documented as thread-safe).
    private static let formatters = Locked<[String: DateFormatter]>([:])

    static func render(_ now: Date, offset: String?, format: String?, timezone: String?) -> String {
        let zone = timezone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        var date = now
        if let offset, let (amount, component) = parseOffset(offset) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            date = calendar.date(byAdding: component, value: amount, to: now) ?? now
        }
        switch format {
        case "epoch": return String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        case "unix": return String(Int64(date.timeIntervalSince1970.rounded(.down)))
        default:
            // The default, like WireMock's: ISO 8601 to the second, `Z` in UTC, the offset elsewhere.
            let pattern = format ?? (zone.secondsFromGMT(for: date) == 0 && timezone == nil ? "yyyy-MM-dd'T'HH:mm:ss'Z'" : "yyyy-MM-dd'T'HH:mm:ssXXXXX")
            let key = pattern + "\u{0}" + zone.identifier
            return formatters.withLock { table in
                let formatter: DateFormatter
                if let known = table[key] { formatter = known } else {
                    formatter = DateFormatter()
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.calendar = Calendar(identifier: .gregorian)
                    formatter.timeZone = zone
                    formatter.dateFormat = pattern
                    if table.count > 256 { table.removeAll() }
                    table[key] = formatter
                }
                return formatter.string(from: date)
            }
        }
    }

    /// `'1 days'`, `'-3 hours'`, `'2 weeks'`: an amount and a calendar unit; nil when it does not read.
    static func parseOffset(_ text: String) -> (Int, Calendar.Component)? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, let amount = Int(words[0].hasPrefix("+") ? words[0].dropFirst() : words[0]) else { return nil }
        var unit = words[1].lowercased()
        if unit.hasSuffix("s") { unit.removeLast() }
        switch unit {
        case "second": return (amount, .second)
        case "minute": return (amount, .minute)
        case "hour": return (amount, .hour)
        case "day": return (amount, .day)
        case "week": return (amount * 7, .day)
        case "month": return (amount, .month)
        case "year": return (amount, .year)
        default: return nil
        }
    }
}

import Foundation
import StubdProtocol

/// `{{now}}`: the session's clock, moved by `offset`, written in `format` and `timezone`.
package enum TemplateClock {
    /// A formatter for one format and zone, and the last second it wrote: most formats change once
    /// a second at most, and formatting costs microseconds (measured: `{{now}}` twice in a 1 KB
    /// body took a templated answer from 0.58× to 0.39× of the canned one before this cache).
    private final class Writer {
        let formatter: DateFormatter
        let zone: TimeZone
        /// Formats finer than a second (`SSS`) are never reused.
        let reusable: Bool
        var lastSecond = Int64.min
        var lastText = ""

        init(pattern: String?, zone: TimeZone, explicitZone: Bool) {
            self.zone = zone
            let pattern = pattern ?? (zone.secondsFromGMT() == 0 && !explicitZone ? "yyyy-MM-dd'T'HH:mm:ss'Z'" : "yyyy-MM-dd'T'HH:mm:ssXXXXX")
            formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.timeZone = zone
            formatter.dateFormat = pattern
            reusable = !pattern.contains("S")
        }

        func write(_ date: Date) -> String {
            let second = Int64(date.timeIntervalSince1970.rounded(.down))
            if reusable, second == lastSecond { return lastText }
            lastText = formatter.string(from: date)
            lastSecond = second
            return lastText
        }
    }

    /// One table per worker thread (see `ThreadStripe`), so workers never wait on each other; each
    /// used under its lock (Foundation's formatters are not documented as thread-safe).
    private static let writers = ThreadStriped<[String: Writer]> { [:] }

    static func render(_ now: Date, offset: String?, format: String?, timezone: String?) -> String {
        if format == "epoch" || format == "unix", offset == nil {
            let seconds = now.timeIntervalSince1970
            return format == "epoch" ? String(Int64((seconds * 1000).rounded(.down))) : String(Int64(seconds.rounded(.down)))
        }
        let key = (format ?? "") + "\u{0}" + (timezone ?? "")
        return writers.withCurrent { table in
            let writer: Writer
            if let known = table[key] { writer = known } else {
                let zone = timezone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
                writer = Writer(pattern: format == "epoch" || format == "unix" ? "" : format, zone: zone, explicitZone: timezone != nil)
                if table.count > 256 { table.removeAll() }
                table[key] = writer
            }
            var date = now
            if let offset, let (amount, component) = parseOffset(offset) {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = writer.zone
                date = calendar.date(byAdding: component, value: amount, to: now) ?? now
            }
            switch format {
            case "epoch": return String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
            case "unix": return String(Int64(date.timeIntervalSince1970.rounded(.down)))
            default: return writer.write(date)
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

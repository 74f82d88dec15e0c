/// The unit of a quota window. Fixed windows are aligned to the calendar in the quota's time zone.
package enum WindowUnit: String, Sendable, CaseIterable {
    case second, minute, hour, day, month

    /// Nominal length in seconds (a month is 30 days for `sliding` and `token_bucket`).
    var seconds: Int {
        switch self {
        case .second: return 1
        case .minute: return 60
        case .hour: return 3600
        case .day: return 86_400
        case .month: return 2_592_000
        }
    }

    static func parse(_ word: Substring) -> WindowUnit? {
        var w = word.lowercased()
        if w.hasSuffix("s"), w.count > 1 { w.removeLast() }
        switch w {
        case "sec", "second": return .second
        case "min", "minute": return .minute
        case "h", "hr", "hour": return .hour
        case "d", "day": return .day
        case "mo", "month": return .month
        default: return nil
        }
    }
}

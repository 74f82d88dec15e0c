import Foundation
/// `"10/minute"`: at most `count` requests per window.
package struct QuotaLimit: Sendable, Hashable, CustomStringConvertible {
    package let count: Int
    package let multiple: Int
    package let unit: WindowUnit
    /// The policy name on the wire (`"minute"`, `"day"`, `"15minutes"`).
    package let name: String

    package var windowSeconds: Int { multiple * unit.seconds }
    package var description: String { "\(count)/\(multiple == 1 ? "" : String(multiple))\(unit.rawValue)" }

    /// The largest count a limit (or a pre-filled use) may have: far above any real API's, and
    /// small enough that sums of counts never overflow.
    package static let maxCount = 1e15
    /// The longest window: ten years, so window arithmetic in seconds stays small.
    package static let maxWindowSeconds = 10 * 366 * 86_400

    /// Parses `10/minute`, `500/day`, `100/15minutes`, `5000/hour`.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0].trimmingCharacters(in: .whitespaces)), count >= 0,
              Double(count) <= QuotaLimit.maxCount else { return nil }
        let window = parts[1].trimmingCharacters(in: .whitespaces)
        let digits = window.prefix(while: \.isNumber)
        let multiple = digits.isEmpty ? 1 : Int(digits) ?? 0
        guard multiple > 0, let unit = WindowUnit.parse(window.dropFirst(digits.count)),
              multiple <= QuotaLimit.maxWindowSeconds / unit.seconds else { return nil }
        if unit == .month, multiple != 1 { return nil }
        self.count = count
        self.multiple = multiple
        self.unit = unit
        self.name = multiple == 1 ? unit.rawValue : "\(multiple)\(unit.rawValue)s"
    }
}

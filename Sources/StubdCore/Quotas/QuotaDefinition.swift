import Foundation
import HTTPTypes

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

/// Whose requests a quota counts together.
package enum QuotaKeySource: Sendable, Hashable, CustomStringConvertible {
    case global
    case ip
    case path(String)
    /// `ignoringCase` when the manifest's `defaults.queryNames` is `any-case`: the name is then lower-case.
    case query(String, ignoringCase: Bool)
    case header(String)

    package var description: String {
        switch self {
        case .global: return "global"
        case .ip: return "ip"
        case .path(let p): return "path \(p)"
        case .query(let q, let ignoringCase): return "query \(q)" + (ignoringCase ? " (any case)" : "")
        case .header(let h): return "header \(h)"
        }
    }
}

package enum QuotaAlgorithm: String, Sendable, CaseIterable {
    /// Windows aligned to the calendar: the minute counter empties at :00 (Open-Meteo, Weather Underground).
    case fixed
    /// A window that ends now: the last N seconds.
    case sliding
    /// Capacity refills continuously at `count / window` (Stripe).
    case tokenBucket = "token_bucket"
}

/// Which real API's answer a rejected request gets.
package enum QuotaProfile: String, Sendable, CaseIterable {
    case ietf, openweathermap, github, wunderground
}

/// The shape of a built-in answer that reports the session's live quotas (`quotaStatus:`).
package enum QuotaStatusStyle: String, Sendable, CaseIterable {
    /// GitHub's `GET /rate_limit`: `{"resources": {"core": {...}}, "rate": {...}}`.
    case github
}

/// Which rate-limit headers successful answers carry.
package enum AdvertiseStyle: String, Sendable, CaseIterable {
    case ietf
    case xRateLimit = "x-ratelimit"
    case github
    case none
}

/// What a rejected request gets.
package enum ExceededAnswer: Sendable {
    case profile(QuotaProfile)
    case custom(status: Int, headers: HTTPFields, body: Data, contentType: String)
}

/// Which requests a quota counts: `"GET /api/{key}/**"` or a route name.
package struct RouteSelector: Sendable, CustomStringConvertible {
    package let text: String
    package let method: MethodMatch
    /// Nil when the selector is a route name.
    package let pattern: PathPattern?
    package let routeName: String?

    package var description: String { text }
}

/// A `quotas:` entry of the manifest. A class: every verdict refers to it, and copying its
/// fields per request showed in profiles.
package final class QuotaDefinition: Sendable {
    package init(name: String, selectors: [RouteSelector], key: QuotaKeySource, limits: [QuotaLimit], algorithm: QuotaAlgorithm,
                exceeded: ExceededAnswer, advertise: AdvertiseStyle, timeZone: TimeZone, resource: String = "core",
                source: String) {
        self.name = name
        self.selectors = selectors
        self.key = key
        self.limits = limits
        self.algorithm = algorithm
        self.exceeded = exceeded
        self.advertise = advertise
        self.timeZone = timeZone
        self.resource = resource
        self.source = source
        shape = limits.map(\.description).joined(separator: ",") + " " + algorithm.rawValue + " " + timeZone.identifier
        ietfPolicy = limits.map { "\"\($0.name)\";q=\($0.count);w=\($0.windowSeconds)" }.joined(separator: ", ")
    }

    /// Limits, algorithm and zone: a reload keeps a quota's counts when these are unchanged.
    let shape: String
    /// `"minute";q=10;w=60, "day";q=500;w=86400`, the same on every answer.
    let ietfPolicy: String

    package let name: String
    package let selectors: [RouteSelector]
    package let key: QuotaKeySource
    package let limits: [QuotaLimit]
    package let algorithm: QuotaAlgorithm
    package let exceeded: ExceededAnswer
    package let advertise: AdvertiseStyle
    /// For calendar-aligned windows. UTC unless the manifest says otherwise (`timezone: America/New_York`).
    package let timeZone: TimeZone
    /// The GitHub resource this quota stands for (`core`, `search`, `graphql`…): what the github
    /// profile sends as `x-ratelimit-resource` and files it under in a `quotaStatus: github` answer.
    package let resource: String
    package let source: String

    /// Whether it answers in GitHub's words: the github profile, or GitHub's headers.
    var speaksGitHub: Bool {
        if case .profile(.github) = exceeded { return true }
        return advertise == .github
    }
}

import Foundation
import HTTPTypes
import StubdProtocol

/// What quotas look like on the wire: advertised headers on success, the profile's answer on rejection.
package enum QuotaAnswers {
    /// Headers for a successful answer, in the quota's `advertise` style, from the limit nearest to running out.
    static func advertised(_ quota: QuotaDefinition, _ tightest: LimitStatus?, now: Date) -> HTTPFields {
        switch quota.advertise {
        case .none: return [:]
        case .ietf: return ietf(quota, tightest)
        case .xRateLimit: return xRateLimit(tightest)
        case .github: return github(quota, tightest, now: now)
        }
    }

    /// draft-ietf-httpapi-ratelimit-headers: every policy, and the one nearest to running out.
    static func ietf(_ quota: QuotaDefinition, _ tightest: LimitStatus?) -> HTTPFields {
        guard let t = tightest else { return [.rateLimitPolicy: quota.ietfPolicy] }
        return [.rateLimitPolicy: quota.ietfPolicy, .rateLimit: rateLimitItem(t)]
    }

    /// `"day";r=7;t=42`, written straight into the string's buffer: interpolation made this header
    /// the largest single cost of a quota'd request.
    static func rateLimitItem(_ t: LimitStatus) -> String {
        String(unsafeUninitializedCapacity: rateLimitItemCapacity(name: t.limit.name)) { buffer in
            writeRateLimitItem(name: t.limit.name, remaining: t.remaining, resetsIn: t.resetsIn, to: buffer.baseAddress!)
        }
    }

    /// The most bytes `writeRateLimitItem` writes for a policy `name`: quotes, labels, two 20-digit numbers.
    static func rateLimitItemCapacity(name: String) -> Int { name.utf8.count + 46 }

    /// `rateLimitItem` into `buffer` (room for `rateLimitItemCapacity` bytes); returns the length.
    static func writeRateLimitItem(name: String, remaining: Int, resetsIn: Int, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
        var name = name
        return name.withUTF8 { name in
            var end = buffer
            end.pointee = UInt8(ascii: "\""); end += 1
            end.update(from: name.baseAddress!, count: name.count); end += name.count
            end = put(";r=", remaining, at: end, prefix: UInt8(ascii: "\""))
            end = put(";t=", resetsIn, at: end, prefix: nil)
            return end - buffer
        }
    }

    /// Writes `prefix`, `label` and the digits of a non-negative `value` (at most 20) at `p`; returns the end.
    private static func put(_ label: StaticString, _ value: Int, at p: UnsafeMutablePointer<UInt8>, prefix: UInt8?) -> UnsafeMutablePointer<UInt8> {
        var p = p
        if let prefix { p.pointee = prefix; p += 1 }
        p.update(from: label.utf8Start, count: label.utf8CodeUnitCount); p += label.utf8CodeUnitCount
        var n = UInt(max(0, value))
        var digits = 1
        var probe = n
        while probe >= 10 { probe /= 10; digits += 1 }
        var q = p + digits
        repeat { q -= 1; q.pointee = UInt8(ascii: "0") + UInt8(n % 10); n /= 10 } while n > 0
        return p + digits
    }

    static func xRateLimit(_ tightest: LimitStatus?) -> HTTPFields {
        guard let t = tightest else { return [:] }
        return [.xRateLimitLimit: String(t.limit.count), .xRateLimitRemaining: String(t.remaining),
                .xRateLimitReset: String(t.resetsIn)]
    }

    /// GitHub's headers: the reset is an epoch time (on the session's clock), the resource GitHub's
    /// name for what is limited (`core` unless the quota says `resource:`).
    static func github(_ quota: QuotaDefinition, _ tightest: LimitStatus?, now: Date) -> HTTPFields {
        guard let t = tightest else { return [:] }
        let reset = Int(now.timeIntervalSince1970) + t.resetsIn
        return [.githubLimit: String(t.limit.count), .githubRemaining: String(t.remaining),
                .githubUsed: String(t.used), .githubReset: String(reset), .githubResource: quota.resource]
    }

    /// GitHub's over-limit message. GitHub names the caller's address, or the user ID behind a token;
    /// a token itself must never come back in an answer (it would land in logs and recordings), so
    /// a token-like key becomes a stable number.
    static func githubExceededMessage(_ v: QuotaVerdict) -> String {
        if v.quota.key == .ip {
            return "API rate limit exceeded for \(v.key). (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)"
        }
        // FNV-1a: stable across runs, unlike Hasher.
        return "API rate limit exceeded for user ID \(FNV1a(v.key.utf8).value % 100_000_000)."
    }

    /// A `quotaStatus: github` answer: GitHub's `GET /rate_limit`, from the live quotas of the
    /// session. Each GitHub-speaking quota (every quota, when none is) is filed under its resource,
    /// for the key this request would be counted under; a resource several quotas share shows the
    /// one nearest to running out. `rate` repeats `core`, as GitHub's does.
    static func githubStatus(_ quotas: [QuotaDefinition], statuses: (QuotaDefinition) -> [LimitStatus], now: Date) -> JSONValue {
        let shown = quotas.contains(where: \.speaksGitHub) ? quotas.filter(\.speaksGitHub) : quotas
        var tightest: [String: LimitStatus] = [:]
        for quota in shown {
            guard let t = statuses(quota).min(by: { ($0.remaining, $0.resetsIn) < ($1.remaining, $1.resetsIn) }) else { continue }
            if let held = tightest[quota.resource], (held.remaining, held.resetsIn) <= (t.remaining, t.resetsIn) { continue }
            tightest[quota.resource] = t
        }
        let epoch = Int(now.timeIntervalSince1970)
        var resources: [String: JSONValue] = [:]
        for (resource, t) in tightest {
            resources[resource] = .object(["limit": .number(Double(t.limit.count)), "used": .number(Double(t.used)),
                                           "remaining": .number(Double(t.remaining)),
                                           "reset": .number(Double(epoch + t.resetsIn)), "resource": .string(resource)])
        }
        var body: [String: JSONValue] = ["resources": .object(resources)]
        if let core = resources["core"] { body["rate"] = core }
        return .object(body)
    }

    /// The answer to a request over the quota, mimicking the API the profile names.
    static func rejection(_ v: QuotaVerdict) -> GeneratedResponse {
        let retry = HTTPField(name: .retryAfter, value: String(v.retryAfter))
        switch v.quota.exceeded {
        case .profile(.ietf):
            let names = v.violated.map { JSONValue.string($0.limit.name) }
            let which = v.violated.map(\.limit.description).joined(separator: " and ")
            return GeneratedResponse.problem(429, title: "Quota exceeded",
                detail: "quota '\(v.quota.name)' allows \(which) for this key; try again in \(v.retryAfter) s",
                extra: ["type": .string("https://iana.org/assignments/http-problem-types#quota-exceeded"),
                        "violated-policies": .array(names)],
                headers: [retry, HTTPField(name: .cacheControl, value: "no-store")] + ietf(v.quota, v.tightest))

        case .profile(.openweathermap):
            // OpenWeatherMap sends no rate-limit headers and no Retry-After.
            return .json(429, .object(["cod": .number(429), "message": .string(
                "Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription http://openweathermap.org/price")]))
        case .profile(.github):
            var headers = github(v.quota, v.tightest, now: v.now)
            if headers[.githubRemaining] != nil { headers[.githubRemaining] = "0" }
            return .json(403, .object([
                "message": .string(githubExceededMessage(v)),
                "documentation_url": .string("https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting")]),
                headers: headers)
        case .profile(.wunderground):
            // Weather Underground answered errors with 200 and an error inside the usual envelope.
            return .json(200, .object(["response": .object([
                "version": .string("0.1"),
                "termsofService": .string("http://www.wunderground.com/weather/api/d/terms.html"),
                "features": .object([:]),
                "error": .object(["type": .string("invalidkey"),
                                  "description": .string("this key has exceeded its allowed number of calls")]),
            ])]))
        case let .custom(status, headers, body, contentType):
            var all: HTTPFields = [.contentType: contentType] + headers
            if headers[.retryAfter] == nil, status == 429 || status == 503 {
                all.append(retry)
            }
            return GeneratedResponse(status: status, headers: all, body: body)
        }
    }
}

import Foundation

/// What quotas look like on the wire: advertised headers on success, the profile's answer on rejection.
enum QuotaAnswers {
    /// Headers for a successful answer, in the quota's `advertise` style.
    static func advertised(_ v: QuotaVerdict) -> [(name: String, value: String)] {
        switch v.quota.advertise {
        case .none: return []
        case .ietf: return ietf(v)
        case .xRateLimit: return xRateLimit(v)
        case .github: return github(v)
        }
    }

    /// draft-ietf-httpapi-ratelimit-headers: every policy, and the one nearest to running out.
    static func ietf(_ v: QuotaVerdict) -> [(name: String, value: String)] {
        let policy = v.quota.ietfPolicy
        guard let t = v.tightest else { return [("RateLimit-Policy", policy)] }
        return [("RateLimit-Policy", policy), ("RateLimit", "\"\(t.limit.name)\";r=\(t.remaining);t=\(t.resetsIn)")]
    }

    static func xRateLimit(_ v: QuotaVerdict) -> [(name: String, value: String)] {
        guard let t = v.tightest else { return [] }
        return [("X-RateLimit-Limit", String(t.limit.count)), ("X-RateLimit-Remaining", String(t.remaining)),
                ("X-RateLimit-Reset", String(t.resetsIn))]
    }

    /// GitHub's headers: the reset is an epoch time, and the resource is the quota's name.
    static func github(_ v: QuotaVerdict) -> [(name: String, value: String)] {
        guard let t = v.tightest else { return [] }
        let reset = Int(v.now.timeIntervalSince1970) + t.resetsIn
        return [("x-ratelimit-limit", String(t.limit.count)), ("x-ratelimit-remaining", String(t.remaining)),
                ("x-ratelimit-used", String(t.used)), ("x-ratelimit-reset", String(reset)),
                ("x-ratelimit-resource", v.quota.name)]
    }

    /// The answer to a request over the quota, mimicking the API the profile names.
    static func rejection(_ v: QuotaVerdict) -> GeneratedResponse {
        let retry = ("Retry-After", String(v.retryAfter))
        switch v.quota.exceeded {
        case .profile(.ietf):
            let names = v.violated.map { JSONValue.string($0.limit.name) }
            let which = v.violated.map(\.limit.description).joined(separator: " and ")
            return GeneratedResponse.problem(429, title: "Quota exceeded",
                detail: "quota '\(v.quota.name)' allows \(which) for this key; try again in \(v.retryAfter) s",
                extra: ["type": .string("https://iana.org/assignments/http-problem-types#quota-exceeded"),
                        "violated-policies": .array(names)],
                headers: [retry, ("Cache-Control", "no-store")] + ietf(v))

        case .profile(.openweathermap):
            // OpenWeatherMap sends no rate-limit headers and no Retry-After.
            return .json(429, .object(["cod": .number(429), "message": .string(
                "Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription http://openweathermap.org/price")]))
        case .profile(.github):
            let headers = github(v).map { h in h.name == "x-ratelimit-remaining" ? (h.name, "0") : h }
            return .json(403, .object([
                "message": .string("API rate limit exceeded for \(v.key). (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)"),
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
            var all = [("Content-Type", contentType)] + headers
            if !headers.contains(where: { $0.name.lowercased() == "retry-after" }), status == 429 || status == 503 {
                all.append(retry)
            }
            return GeneratedResponse(status: status, headers: all, body: body)
        }
    }
}

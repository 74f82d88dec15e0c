import Foundation
package import HTTPTypes

/// Headers added to a canned answer for one request: what its quotas advertise.
///
/// The usual case, one quota with IETF headers, is kept as numbers until it is sent: the transport
/// writes the `RateLimit` digits straight into the response it reuses for the connection, so an
/// accepted quota'd request formats and allocates no strings of its own.
package struct ExtraHeaders: Sendable {
    enum Form: Sendable {
        case list(HTTPFields)
        case rateLimit(RateLimitAdvert)
    }
    let form: Form

    package static let none = ExtraHeaders([:])

    package init(_ list: HTTPFields) { form = .list(list) }
    init(rateLimit: RateLimitAdvert) { form = .rateLimit(rateLimit) }

    package var isEmpty: Bool {
        if case .list(let list) = form { return list.isEmpty }
        return false
    }

    /// The headers as fields (the IETF form formats its value here).
    package var list: HTTPFields {
        switch form {
        case .list(let list): return list
        case .rateLimit(let advert): return [.rateLimitPolicy: advert.policy, .rateLimit: advert.value]
        }
    }

    /// What `quota` advertises for a request whose nearest limit is `tightest`.
    static func advertising(_ quota: QuotaDefinition, _ tightest: Standing?, now: Date) -> ExtraHeaders {
        if quota.advertise == .ietf, let tightest {
            return ExtraHeaders(rateLimit: RateLimitAdvert(quota: quota, tightest: tightest))
        }
        return ExtraHeaders(QuotaAnswers.advertised(quota, tightest.map { LimitStatus($0, of: quota) }, now: now))
    }

    /// These headers and what `quota` advertises for a request whose nearest limit is `tightest`.
    func adding(_ quota: QuotaDefinition, _ tightest: Standing?, now: Date) -> ExtraHeaders {
        if isEmpty { return Self.advertising(quota, tightest, now: now) }
        let advertised = QuotaAnswers.advertised(quota, tightest.map { LimitStatus($0, of: quota) }, now: now)
        return advertised.isEmpty ? self : ExtraHeaders(list + advertised)
    }

    /// The single-quota IETF form, for a transport that writes the value itself.
    package var rateLimit: RateLimitAdvert? {
        if case .rateLimit(let advert) = form { return advert }
        return nil
    }
}

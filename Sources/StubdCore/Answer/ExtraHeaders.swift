import Foundation
import HTTPTypes

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

/// One IETF quota's headers on an accepted request: `RateLimit-Policy` (the same on every answer of
/// the quota) and `RateLimit` (the limit nearest to running out).
package struct RateLimitAdvert: Sendable {
    /// Kept alive by the outcome's route, whose quota plans hold it; not retained here because
    /// every worker would write to the same reference count on every request.
    unowned(unsafe) let quota: QuotaDefinition
    let tightest: Standing

    /// `"minute";q=10;w=60, "day";q=500;w=86400`
    package var policy: String { quota.ietfPolicy }

    /// `"minute";r=7;t=42`
    package var value: String { QuotaAnswers.rateLimitItem(LimitStatus(tightest, of: quota)) }

    /// Bytes `writeValue` may need.
    package var maxValueLength: Int { QuotaAnswers.rateLimitItemCapacity(name: quota.limits[tightest.index].name) }

    /// Writes the `RateLimit` value (no terminating zero) at `buffer`, which has room for
    /// `maxValueLength` bytes; returns its length.
    package func writeValue(to buffer: UnsafeMutablePointer<UInt8>) -> Int {
        QuotaAnswers.writeRateLimitItem(name: quota.limits[tightest.index].name, remaining: tightest.remaining,
                                        resetsIn: tightest.resetsIn, to: buffer)
    }

    /// The quota's identity: adverts of the same quota share a `RateLimit-Policy`.
    package var quotaIdentity: ObjectIdentifier { ObjectIdentifier(quota) }
}

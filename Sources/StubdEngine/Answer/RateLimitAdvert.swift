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

/// Which rate-limit headers successful answers carry.
package enum AdvertiseStyle: String, Sendable, CaseIterable {
    case ietf
    case xRateLimit = "x-ratelimit"
    case github
    case none
}

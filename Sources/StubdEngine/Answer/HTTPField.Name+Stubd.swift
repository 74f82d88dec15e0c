package import HTTPTypes

// Header names stubd writes that HTTPTypes does not define. Each is spelled as the API it mimics
// sends it: a name's case goes on the wire as written (GitHub's are lower-case).
extension HTTPField.Name {
    package static let rateLimitPolicy = Self("RateLimit-Policy")!
    package static let rateLimit = Self("RateLimit")!
    package static let xRateLimitLimit = Self("X-RateLimit-Limit")!
    package static let xRateLimitRemaining = Self("X-RateLimit-Remaining")!
    package static let xRateLimitReset = Self("X-RateLimit-Reset")!
    package static let githubLimit = Self("x-ratelimit-limit")!
    package static let githubRemaining = Self("x-ratelimit-remaining")!
    package static let githubUsed = Self("x-ratelimit-used")!
    package static let githubReset = Self("x-ratelimit-reset")!
    package static let githubResource = Self("x-ratelimit-resource")!
    /// Names the session a request belongs to, when no `/__s/{id}` prefix does.
    package static let stubdSession = Self("X-Stubd-Session")!
    /// RFC 7240; a session's preferred answer is sent as one when the request has none.
    package static let prefer = Self("Prefer")!
}

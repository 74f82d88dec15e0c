package import Foundation

/// A `quotas:` entry of the manifest. A class: every verdict refers to it, and copying its
/// fields per request showed in profiles.
package final class QuotaDefinition: Sendable {
    package init(name: String, selectors: [RouteSelector], key: QuotaKeySource, limits: [QuotaLimit], algorithm: QuotaAlgorithm,
                exceeded: ExceededAnswer, advertise: AdvertiseStyle, timeZone: TimeZone, resource: String = "core",
                maxKeys: Int = QuotaDefinition.defaultMaxKeys, countsNotModified: Bool? = nil, source: String) {
        self.name = name
        self.selectors = selectors
        self.key = key
        self.limits = limits
        self.algorithm = algorithm
        self.exceeded = exceeded
        self.advertise = advertise
        self.timeZone = timeZone
        self.resource = resource
        self.maxKeys = max(1, maxKeys)
        self.source = source
        let github: Bool
        if case .profile(.github) = exceeded { github = true } else { github = advertise == .github }
        self.countsNotModified = countsNotModified ?? !github
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
    /// Keys counted at once (`maxKeys:`): each request may name a new one, and each holds memory
    /// until every one of its windows has passed. Past it a new key's request gets a 503 naming it.
    package let maxKeys: Int
    package static let defaultMaxKeys = 100_000
    /// The most a manifest may raise `maxKeys` to.
    package static let maxKeysCeiling = 10_000_000
    package let source: String
    /// Whether a request answered `304 Not Modified` counts (`notModified: counted | free`). GitHub's
    /// do not ("conditional requests"), so a quota that answers as GitHub's is free by default; any
    /// other counts, as most APIs count every request.
    package let countsNotModified: Bool

    /// Whether it answers in GitHub's words: the github profile, or GitHub's headers.
    var speaksGitHub: Bool {
        if case .profile(.github) = exceeded { return true }
        return advertise == .github
    }
}

/// The outcome of matching one request against a set of routes.
package enum MatchResult: Sendable {
    case matched(Route, parameters: [String: String])
    /// The path exists, but not for this method.
    case wrongMethod(allowed: [String], misses: [NearMiss])
    case notFound(misses: [NearMiss])
}

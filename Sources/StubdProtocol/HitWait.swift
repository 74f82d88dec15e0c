/// `GET /__stubd/hits/wait?route=…&count=N`: 200 when the count was reached, 408 with the count so far.
public struct HitWait: Sendable, Equatable, Codable {
    /// What the wait was for, as sent: a route name, a pattern or a concrete path.
    public let route: String
    /// Its hits when the call answered: at least `expected` with the 200, fewer with the 408.
    public let hits: Int
    /// The `count` the call waited for.
    public let expected: Int
    /// Requests of the session that matched nothing, so far.
    public let unmatched: Int
    /// A wait's answer as given.
    public init(route: String, hits: Int, expected: Int, unmatched: Int) {
        self.route = route; self.hits = hits; self.expected = expected; self.unmatched = unmatched
    }
}

/// `GET /__stubd/hits/wait?route=…&count=N`: 200 when the count was reached, 408 with the count so far.
public struct HitWait: Sendable, Equatable, Codable {
    public let route: String
    public let hits: Int
    public let expected: Int
    /// Requests of the session that matched nothing, so far.
    public let unmatched: Int
    public init(route: String, hits: Int, expected: Int, unmatched: Int) {
        self.route = route; self.hits = hits; self.expected = expected; self.unmatched = unmatched
    }
}

/// How a created item gets its id (`idStrategy:` of a resource).
package enum ResourceIDStrategy: String, Sendable, CaseIterable {
    /// One more than the largest whole-number id the collection has held (json-server's rule).
    case increment
    /// A random UUID, lower-case, drawn from the session's seeded numbers so a rerun draws the same.
    case uuid
    /// The client's: the body must carry the id field (a 400 otherwise, a 409 when it is taken).
    case body
}

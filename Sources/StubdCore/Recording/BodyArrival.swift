import StubdEngine

/// When a piece of an answer's body came from the real API: the body's length once it had come,
/// and how long after the answer's head. Kept for event streams, whose timing is part of the answer.
package struct BodyArrival: Sendable, Hashable {
    /// Bytes of the body received so far, this piece included.
    package var end: Int
    /// Since the answer's status line arrived.
    package var at: Duration

    package init(end: Int, at: Duration) {
        self.end = end
        self.at = at
    }
}

package import StubdEngine

/// An admin answer held until something happens in a session or its time is up (a long-poll such
/// as `GET /__stubd/streams/wait`): the transport suspends the request, registers `fire`, and answers
/// with `answer()` when it fires or after `timeout` seconds.
package struct AdminHold: Sendable {
    /// Seconds the answer is held at most.
    package let timeout: Double
    /// Registers `fire`, to be called once when what the call waits for happens; nil when it has
    /// already (answer at once).
    package let register: @Sendable (_ fire: @escaping @Sendable () -> Void) -> Int?
    /// Drops a registration whose timeout came first; false when it fired already.
    package let cancel: @Sendable (Int) -> Bool
    /// The answer, made when the wait is over.
    package let answer: @Sendable () -> GeneratedResponse
}

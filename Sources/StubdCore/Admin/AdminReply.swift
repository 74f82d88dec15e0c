package import StubdEngine

/// What an admin call needs from the transport: an answer now, or a long-poll.
package enum AdminReply: Sendable {
    case response(GeneratedResponse)
    /// Hold the connection until what `AdminHold` waits for happens (`hits/wait`'s count, `streams/wait`'s),
    /// or its time is up.
    case hold(AdminHold)
}

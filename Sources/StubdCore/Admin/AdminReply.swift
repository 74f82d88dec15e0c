/// What an admin call needs from the transport: an answer now, or a long-poll.
package enum AdminReply: Sendable {
    case response(GeneratedResponse)
    /// Hold the connection until `session` has `count` hits on `query`, or `timeout` seconds pass;
    /// then answer with `AdminEndpoints.hitsWaitResult`.
    case waitForHits(session: SessionState, query: RouteQuery, count: Int, timeout: Double)
    /// Hold the connection until what `AdminHold` waits for happens, or its time is up.
    case hold(AdminHold)
}

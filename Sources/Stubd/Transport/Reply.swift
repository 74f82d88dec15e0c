import StubdCore

/// What a responder answers a request with, before anything is sent.
enum Reply {
    /// A one-off answer (an admin reply, a refusal), sent as it is.
    case generated(GeneratedResponse)
    /// A stub's answer: its network behaviours (delay, fault, throttle, hang) apply.
    case stub(Outcome)
    /// `GET /__stubd/hits/wait`: held until the count is reached or the time is up.
    case waitForHits(session: SessionState, query: String, count: Int, timeout: Double)
    /// `GET /__stubd/events`: a Server-Sent Events stream of the sessions that change (nil: all).
    case events(session: String?)
    /// Passed on to the real API.
    case forward(SessionState, ForwardingResponder)
}

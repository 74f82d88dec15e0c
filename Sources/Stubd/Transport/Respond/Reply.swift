import StubdCore
import StubdEngine

/// What a responder answers a request with, before anything is sent.
enum Reply {
    /// Sent as it is (an admin reply, a refusal, an event stream): no behaviour applies.
    case now(Response)
    /// A stub's answer: its network behaviours (delay, fault, throttle, hang) apply.
    case stub(Outcome)
    /// An admin long-poll (`GET /__stubd/hits/wait`, `streams/wait`): held until it fires or its time is up.
    case hold(AdminHold)
    /// Passed on to the real API.
    case forward(SessionState, ForwardingResponder)

    /// A one-off answer, sent as it is.
    static func generated(_ generated: GeneratedResponse) -> Reply { .now(.generated(generated)) }
}

import StubdCore
import StubdEngine

/// What the in-process front answers a request with, for `AnswerDelivery` to carry out.
enum InProcessAnswer {
    /// stubd's own answer (an admin call's, a refusal, a 404), sent whole at once.
    case generated(GeneratedResponse)
    /// A stub's answer, whose network behaviours (delay, hang, fault, throttle, events) apply:
    /// `route` is its key for the session's stream counts, `journal` the entry its events go under.
    case stub(CannedResponse, ExtraHeaders, session: SessionState, route: String, journal: Int?, lastEventID: String?)
    /// An admin long-poll (`hits/wait`, `streams/wait`), answered when it fires or its time is up.
    case held(AdminHold)
}

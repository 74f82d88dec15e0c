import StubdCore
import StubdEngine

/// What a held request finishes when its connection is resumed (`RequestLifecycle.State.held`):
/// set when the hold starts, replaced by what ends it (a forward's answer, a render), and finished
/// by libmicrohttpd's thread (`RequestRouter.finish`). The work is all another thread hands over:
/// it never writes the request's context, which libmicrohttpd's thread may be finishing already.
///
/// Every case boxed (`indirect`): the lifecycle's state and events carry it, and each move copies
/// them, so a one-word payload keeps a plain request's moves as cheap as a one-byte state's (the
/// unboxed answer made the handler ~1,100 instructions dearer a request). Only a held request
/// makes one, so the box is an allocation per hold, not per request. (A `Response` may itself be a
/// held answer, which needed the box anyway.)
indirect enum PendingWork {
    /// Send this after the delay, logged with `line`: the request's log line as the thread that
    /// made the answer finished it (a forward's note, a rendered stream's journal id); nil, the
    /// line the request was held with.
    case answer(Outcome.Answer, line: RequestLogLine? = nil)
    /// An admin long-poll (`hits/wait`, `streams/wait`); its registration once made.
    case adminHold(AdminHold, registration: Int?)
    /// Written as it is, its log line written elsewhere or not at all (a forwarded answer too
    /// large to hold, sent as it arrives; a `hang`'s close; a stream's pause, which libmicrohttpd
    /// resumes through its reader, never here).
    case response(Response)
}

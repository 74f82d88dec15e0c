import StubdCore

/// What a held request finishes when its connection is resumed (`RequestLifecycle.State.held`):
/// set when the hold starts, replaced by what ends it (a forward's answer, a render), and finished
/// by libmicrohttpd's thread (`RequestRouter.finish`).
///
/// Every case boxed (`indirect`): the lifecycle's state and events carry it, and each move copies
/// them, so a one-word payload keeps a plain request's moves as cheap as a one-byte state's (the
/// unboxed answer made the handler ~1,100 instructions dearer a request). Only a held request
/// makes one, so the box is an allocation per hold, not per request. (A `Response` may itself be a
/// held answer, which needed the box anyway.)
indirect enum PendingWork {
    /// Send this after the delay (logged with the request's line).
    case answer(Outcome.Answer)
    /// An admin long-poll (`hits/wait`, `streams/wait`); its registration once made.
    case adminHold(AdminHold, registration: Int?)
    /// A template still rendering off the worker when the hold ended (`stop()`, a departed
    /// client): rendered on the worker now.
    case render(DeferredRender)
    /// Written as it is, its log line written elsewhere or not at all (a forwarded answer too
    /// large to hold, sent as it arrives; a `hang`'s close; a stream's pause, which libmicrohttpd
    /// resumes through its reader, never here).
    case response(Response)
}

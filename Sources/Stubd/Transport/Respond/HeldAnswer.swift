
/// An answer that is not ready when the request is read: a stub's delay or hang, a long-poll for
/// hits, a template rendered off the worker, a forward. Written as a `Response` (`.held`), it has
/// the writer suspend the connection (no worker waits) and then `start` the wait; what ends the
/// wait calls `resume` with the work to finish (nil: `work`), once, from any thread; the request's
/// lifecycle keeps it (`RequestLifecycle.Event.holdOver`), and libmicrohttpd calls the handler
/// again to finish it (`RequestRouter.finish`). A server that is stopping suspends nothing: `now`
/// answers at once instead.
struct HeldAnswer {
    let context: RequestContext
    /// What the hold finishes if whoever ends it hands in nothing (a timer, `stop()`, a departed client).
    let work: PendingWork
    /// Begins the wait, with the connection suspended already.
    let start: (_ resume: @escaping @Sendable (_ finishing: PendingWork?) -> Void) -> Void
    /// The answer when the connection could not be suspended (the server is stopping), on it.
    let now: (borrowing Connection) -> CallResult
}

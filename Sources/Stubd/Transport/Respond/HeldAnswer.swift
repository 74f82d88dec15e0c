import CMicroHTTPD

/// An answer that is not ready when the request is read: a stub's delay or hang, a long-poll for
/// hits, a template rendered off the worker, a forward. Written as a `Response` (`.held`), it has
/// the writer suspend the connection (no worker waits) and then `start` the wait; what ends the
/// wait sets the request's pending work (`RequestContext.pending`) and calls `resume`, once, from
/// any thread, and libmicrohttpd calls the handler again to finish it (`RequestRouter.finish`).
/// A server that is stopping suspends nothing: `now` answers at once instead.
struct HeldAnswer {
    let context: RequestContext
    /// Begins the wait, with the connection suspended already.
    let start: (_ resume: @escaping @Sendable () -> Void) -> Void
    /// The answer when the connection could not be suspended (the server is stopping), on it.
    let now: (borrowing Connection) -> MHD_Result
}

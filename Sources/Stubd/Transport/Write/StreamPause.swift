
/// How a stream with nothing to send yet waits without holding a worker thread: the connection is
/// suspended, and resumed after a delay or by whoever has the next bytes. Registered like every
/// other suspension, so `stop()` resumes it; each returns nil or false when the server is stopping
/// (then the stream should end or send what it has).
struct StreamPause {
    fileprivate let connection: ConnectionHandle
    fileprivate unowned(unsafe) let suspensions: Suspensions

    init(connection: ConnectionHandle, suspensions: Suspensions) {
        self.connection = connection
        self.suspensions = suspensions
    }

    /// Suspends the connection for `nanoseconds`; false when stopping.
    func suspend(forNanoseconds nanoseconds: UInt64) -> Bool {
        let context = RequestContext(.streaming)
        guard suspensions.suspend(context, finishing: Self.work, connection) else { return false }
        let suspensions = suspensions
        Suspensions.schedule(after: nanoseconds) { suspensions.resume(context, finishing: nil) }
        return true
    }

    /// True when the client closed or reset the connection (a stream resumed by the departure
    /// watch, or about to pause again, has nobody to send to: it should cut).
    var clientHasLeft: Bool {
        let fd = connection.fd
        return fd >= 0 && Sockets.peerHasLeft(fd)
    }

    /// Suspends the connection until the returned wake-up is called (from any thread, at most once
    /// matters); nil when stopping.
    func suspendUntilWoken() -> (@Sendable () -> Void)? {
        let context = RequestContext(.streaming)
        guard suspensions.suspend(context, finishing: Self.work, connection) else { return nil }
        let suspensions = suspensions
        return { suspensions.resume(context, finishing: nil) }
    }

    /// libmicrohttpd resumes a stream through its reader, not the access handler, so a pause's work
    /// is never finished; were it, the connection would close.
    private static var work: PendingWork { .response(.drop(reset: false)) }
}

import StubdProtocol

/// A value kept once per worker thread (see `ThreadStripe`), each behind its own lock: a worker
/// writes only its own copy, so the lock is only ever contended by a reader that visits them all.
/// What a session counts per request (route states, path counts, the journal), the catalog in force
/// and the templates' date formatters are kept this way.
package final class ThreadStriped<Value>: Sendable {
    private let stripes: [Locked<Value>]

    init(_ make: () -> Value) {
        stripes = (0..<ThreadStripe.count).map { _ in Locked(make()) }
    }

    /// Runs `body` with the current worker thread's own copy, under its lock.
    @inline(__always)
    func withCurrent<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try stripes[ThreadStripe.current].withLock(body)
    }

    /// Runs `body` with every copy in turn, each under its lock (reads, resets, publishing).
    func forEach(_ body: (inout Value) -> Void) {
        for stripe in stripes { stripe.withLock(body) }
    }

    /// Folds every copy into one result, each read under its lock.
    func reduce<Result>(_ initial: Result, _ next: (Result, inout Value) -> Result) -> Result {
        stripes.reduce(initial) { result, stripe in stripe.withLock { next(result, &$0) } }
    }
}

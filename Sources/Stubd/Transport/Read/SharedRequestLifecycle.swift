import Synchronization

/// A request's `RequestLifecycle` shared by the threads that may move it (libmicrohttpd's, a timer,
/// a waiter, a forward, `stop()`): each move is applied to the current phase and stored with a
/// compare-and-swap, retried if another thread moved it first, so exactly one of several racing
/// `resume()`s wins. One byte inside the request's context: with the log on every request has a
/// context, so a lock here would be an allocation (and a `pthread_mutex_init`) per request, and
/// `Synchronization.Mutex` waits with futex calls ThreadSanitizer does not see, which CI's TSan run
/// reported as a race. Atomics it sees.
struct SharedRequestLifecycle: ~Copyable, Sendable {
    private let raw: Atomic<UInt8>

    init(_ phase: RequestLifecycle.Phase) {
        raw = Atomic(phase.rawValue)
    }

    var phase: RequestLifecycle.Phase {
        RequestLifecycle.Phase(rawValue: raw.load(ordering: .acquiring))!
    }

    /// Applies `move` (one of `RequestLifecycle`'s moves) atomically and returns what it said.
    @discardableResult
    func move<Result>(_ move: (inout RequestLifecycle) -> Result) -> Result {
        var current = raw.load(ordering: .acquiring)
        while true {
            var life = RequestLifecycle(RequestLifecycle.Phase(rawValue: current)!)
            let result = move(&life)
            let next = life.phase.rawValue
            if next == current { return result }
            let (exchanged, found) = raw.compareExchange(expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return result }
            current = found
        }
    }
}

import Synchronization

/// A request's `RequestLifecycle` shared by the threads that may move it (libmicrohttpd's, a timer,
/// a waiter, a forward, `stop()`): each event is applied to the current state and stored with a
/// compare-and-swap, retried if another thread moved it first, so exactly one of several racing
/// `.holdOver`s is told to resume. One byte inside the request's context: with the log on every request has a
/// context, so a lock here would be an allocation (and a `pthread_mutex_init`) per request, and
/// `Synchronization.Mutex` waits with futex calls ThreadSanitizer does not see, which CI's TSan run
/// reported as a race. Atomics it sees.
struct SharedRequestLifecycle: ~Copyable, Sendable {
    private let raw: Atomic<UInt8>

    init(_ state: RequestLifecycle.State) {
        raw = Atomic(state.rawValue)
    }

    var state: RequestLifecycle.State {
        RequestLifecycle.State(rawValue: raw.load(ordering: .acquiring))!
    }

    /// Moves by `event` atomically and returns the action for the state it moved from.
    @discardableResult
    func handle(_ event: RequestLifecycle.Event) -> RequestLifecycle.Action {
        var current = raw.load(ordering: .acquiring)
        while true {
            var life = RequestLifecycle(RequestLifecycle.State(rawValue: current)!)
            let action = life.handle(event)
            let next = life.state.rawValue
            if next == current { return action }
            let (exchanged, found) = raw.compareExchange(expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return action }
            current = found
        }
    }
}

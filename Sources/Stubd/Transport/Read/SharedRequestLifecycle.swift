import Foundation
import Synchronization

/// The one-byte gate a request's `RequestLifecycle` is shared behind, by the threads that may move
/// it (libmicrohttpd's, a timer, a waiter, a forward, `stop()`): each event is applied to the whole
/// value with the gate taken, so exactly one of several racing `.holdOver`s is told to resume, and
/// the work it hands in is the work finished.
///
/// An atomic byte beside the value in the request's context, taken by compare-and-swap (acquiring)
/// and given back by a store (releasing), not a lock: with the log on every request has a context,
/// and a lock beside it was an allocation and a `pthread_mutex_init` per request;
/// `Synchronization.Mutex` waits with futex calls ThreadSanitizer does not see (CI's TSan run
/// reported a race through one); atomics it sees. It is held only for one `RequestLifecycle.handle`,
/// a switch, and contended only when a hold ends as libmicrohttpd's thread notes something, so a
/// waiter spins (yielding the core after a few tries).
///
/// A function over the gate rather than a generic class the context inherits: a generic superclass
/// made every context's creation and release go through its unspecialised metadata (the handler
/// +1,540 instructions a plain request, the completion notice 558 -> 1,347: Benchmarks/RESULTS.md),
/// while the context's own `PendingWork` value is laid out and destroyed by specialised code.
enum SharedRequestLifecycle {
    static let open: UInt8 = 0
    static let taken: UInt8 = 1

    /// Runs `body` (one move of the value the gate guards) with the gate taken.
    @inline(__always)
    static func withGate<Result>(_ gate: borrowing Atomic<UInt8>, _ body: () -> Result) -> Result {
        var tries = 0
        while !gate.compareExchange(expected: open, desired: taken, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
            tries += 1
            if tries > 16 { sched_yield() }
        }
        let result = body()
        gate.store(open, ordering: .releasing)
        return result
    }
}

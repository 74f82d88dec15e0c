import Foundation
import Synchronization

/// A request's `RequestLifecycle`, with the work it holds, shared by the threads that may move it
/// (libmicrohttpd's, a timer, a waiter, a forward, `stop()`): each event is applied to the whole
/// value behind a one-byte gate, so exactly one of several racing `.holdOver`s is told to resume,
/// and the work it hands in is the work finished.
///
/// A class the request's context inherits from, so the two are one allocation: with the log on
/// every request has a context, and a lock beside it was an allocation and a `pthread_mutex_init`
/// per request. The gate is an atomic byte taken by compare-and-swap (acquiring) and given back by
/// a store (releasing), not `Synchronization.Mutex`: its futex waits are invisible to
/// ThreadSanitizer, which CI's TSan run reported as a race; atomics it sees. It is held only for
/// one `RequestLifecycle.handle`, a switch, and contended only when a hold ends as libmicrohttpd's
/// thread notes something, so a waiter spins (yielding the core after a few tries).
class SharedRequestLifecycle<Work>: @unchecked Sendable {
    typealias Lifecycle = RequestLifecycle<Work>

    private static var open: UInt8 { 0 }
    private static var taken: UInt8 { 1 }
    private let gate = Atomic<UInt8>(0)
    /// Read and written only with the gate taken.
    private var life: Lifecycle

    init(_ state: Lifecycle.State) {
        life = Lifecycle(state)
    }

    /// Where the request is, with its work (a copy, taken through the gate).
    final var state: Lifecycle.State {
        take()
        let state = life.state
        gate.store(Self.open, ordering: .releasing)
        return state
    }

    /// Moves by `event` atomically and returns the action for the state it moved from.
    @discardableResult
    final func handle(_ event: Lifecycle.Event) -> Lifecycle.Action {
        take()
        let action = life.handle(event)
        gate.store(Self.open, ordering: .releasing)
        return action
    }

    @inline(__always)
    private final func take() {
        var tries = 0
        while !gate.compareExchange(expected: Self.open, desired: Self.taken, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
            tries += 1
            if tries > 16 { sched_yield() }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex: what `Synchronization.Mutex` does, in a form ThreadSanitizer
/// understands. On Linux, Swift 6.3's `Mutex` locks with raw futex calls that TSan does not see, so
/// every access under it is reported as a race (a correct ten-line counter gets the same reports),
/// and real races would drown among them. TSan intercepts `pthread_mutex_*`, so with this type the
/// suite runs under TSan with nothing suppressed. Uncontended, it costs what `Mutex` does.
///
/// `withLock` is inlinable, so the modules that use it get it specialized for their value and
/// closure: called across the module boundary unspecialized, each of a request's ~7 locks paid for
/// generic code, a closure context and a dynamic exclusivity check (`swift_beginAccess`/`EndAccess`)
/// on `value`, ~100 instructions a lock (callgrind). The mutex already makes every access exclusive:
/// a nested `withLock` on the same value would deadlock before the check could report it.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// Holds `value` behind a new mutex.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    // Not inlinable: what inlined code calls names no type of the C library.
    @usableFromInline func lock() { pthread_mutex_lock(mutex) }
    @usableFromInline func unlock() { pthread_mutex_unlock(mutex) }
}

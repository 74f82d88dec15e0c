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
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

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
    @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

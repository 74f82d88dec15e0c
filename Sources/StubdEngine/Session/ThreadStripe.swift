#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Which of N stripes the current thread writes to. Each worker thread gets its own stripe (in
/// order of first use), so the locks guarding per-thread state are only ever contended by readers.
package enum ThreadStripe {
    package static let count = 16
    private static let next = Atomic<Int>(0)
    nonisolated(unsafe) private static var key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    package static var current: Int {
        if let value = pthread_getspecific(key) { return (Int(bitPattern: value) - 1) & (count - 1) }
        let index = next.add(1, ordering: .relaxed).oldValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: index + 1))
        return index & (count - 1)
    }
}

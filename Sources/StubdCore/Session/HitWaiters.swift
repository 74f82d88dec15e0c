import Synchronization

/// Long-polls waiting for a hit count (`/__stubd/hits/wait`). A hit checks them only when one
/// is pending, so the hot path pays one relaxed atomic load.
final class HitWaiters: Sendable {
    private struct Waiter {
        let id: Int
        let query: String
        let count: Int
        let fire: @Sendable () -> Void
    }
    private let pending = Atomic<Int>(0)
    private let nextID = Atomic<Int>(1)
    private let waiters = Mutex<[Waiter]>([])

    var hasPending: Bool { pending.load(ordering: .relaxed) > 0 }

    /// Registers a waiter, unless `current` already satisfies it (then nil: answer at once).
    func add(query: String, count: Int, current: () -> Int, fire: @escaping @Sendable () -> Void) -> Int? {
        waiters.withLock { list in
            // Checked under the lock, so a hit between the check and the registration cannot be missed.
            if current() >= count { return nil }
            let id = nextID.add(1, ordering: .relaxed).oldValue
            list.append(Waiter(id: id, query: query, count: count, fire: fire))
            pending.add(1, ordering: .relaxed)
            return id
        }
    }

    /// Removes a waiter (timeout or server stop). False when a hit already fired it.
    @discardableResult
    func remove(_ id: Int) -> Bool {
        waiters.withLock { list in
            guard let i = list.firstIndex(where: { $0.id == id }) else { return false }
            list.remove(at: i)
            pending.subtract(1, ordering: .relaxed)
            return true
        }
    }

    /// Fires every waiter whose count is now reached.
    func notify(count: (String) -> Int) {
        let ready: [Waiter] = waiters.withLock { list in
            var fired: [Waiter] = []
            list.removeAll { w in
                guard count(w.query) >= w.count else { return false }
                fired.append(w)
                return true
            }
            pending.subtract(fired.count, ordering: .relaxed)
            return fired
        }
        for w in ready { w.fire() }
    }

    /// Fires every waiter (reset, shutdown): each then answers with what it has.
    func fireAll() {
        let all = waiters.withLock { list in
            defer { list.removeAll(); pending.store(0, ordering: .relaxed) }
            return list
        }
        for w in all { w.fire() }
    }
}

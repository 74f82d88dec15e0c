import StubdProtocol
import Synchronization

/// The last N requests (default 1000), with their bodies up to a budget (`bodyBudget`): rings, so a long test run never grows it. Each worker
/// thread appends to its own ring (no lock contention on the hot path); reading merges them by
/// arrival order and keeps the newest N. A ring grows as requests arrive, so a session that
/// answers a few requests costs a few entries, not N per worker.
package final class RequestJournal: Sendable {
    private struct Ring {
        var items: [(sequence: Int, entry: JournalEntry)] = []
        /// Where the next entry goes once the ring is full.
        var next = 0
        /// How many of the oldest entries are known to hold no bodies (let go, or none kept): the next
        /// drop starts past them, rather than scanning the whole ring each request once over budget.
        var bare = 0
    }
    private let rings = ThreadStriped { Ring() }
    private let sequence = Atomic<Int>(0)
    package let capacity: Int
    /// The most body bytes (`JournalBodies`) the session's entries hold together: 1,000 entries of
    /// two 64 KiB bodies would be 128 MiB a session. Past it, the oldest entries' bodies go first.
    package let bodyBudget: Int
    /// 16 MiB a session.
    package static let defaultBodyBudget = 16 * 1024 * 1024
    private let bodyBytes = Atomic<Int>(0)
    /// Where the bodies are charged too: the whole server's budget (`SessionStorage`).
    private let storage: SessionStorageAccount

    init(capacity: Int, bodyBudget: Int = RequestJournal.defaultBodyBudget, storage: SessionStorageAccount = .unbounded()) {
        self.capacity = max(1, capacity)
        self.bodyBudget = max(0, bodyBudget)
        self.storage = storage
    }

    /// `entry` is taken, not copied: moved into its ring, so its fields are not retained once more
    /// and released (a copy of a `JournalEntry` counts a dozen references). Inlined into its one
    /// caller (`StubEngine.journal`): called, the entry built there was copied to be passed and the
    /// original destroyed (~130 instructions a request, callgrind).
    @inline(__always)
    func append(_ entry: consuming JournalEntry) {
        let n = sequence.add(1, ordering: .relaxed).oldValue
        if let bodies = entry.bodies, bodies.bytes > bodyBudget { entry.bodies = bodies.droppingBodies() }
        if let bodies = entry.bodies, bodies.bytes > 0 {
            // Charged before the ring's lock (a charge may evict other sessions); refused, this entry keeps no bodies.
            do { try storage.charge(bodies.bytes) } catch { entry.bodies = bodies.droppingBodies() }
        }
        let bytes = entry.bodies?.bytes ?? 0
        var pending = Optional(consume entry)
        let letGo: Int = rings.withCurrent { r in
            var freed = 0
            if r.items.count < capacity {
                r.items.append((n, pending.take()!))
            } else {
                freed = r.items[r.next].entry.bodies?.bytes ?? 0
                r.items[r.next] = (n, pending.take()!)
                r.next = (r.next + 1) % capacity
                // The oldest entry was replaced: the ones known bare are one place nearer the oldest.
                r.bare = max(0, r.bare - 1)
            }
            guard bytes != freed else { return freed }
            let held = bodyBytes.add(bytes - freed, ordering: .relaxed).newValue
            if held > bodyBudget { freed += dropOldestBodies(&r, over: held - bodyBudget) }
            return freed
        }
        storage.release(letGo)
    }

    /// Lets go of this ring's oldest bodies until `excess` bytes are freed. Other workers' rings
    /// keep theirs (they may be older): each ring gives up its own, so no lock is shared. Starts past
    /// the entries already bare (`Ring.bare`), so a ring over budget pays for one or two entries a
    /// request, not a scan of up to `capacity`.
    private func dropOldestBodies(_ r: inout Ring, over excess: Int) -> Int {
        var freed = 0
        let count = r.items.count
        let oldest = count < capacity ? 0 : r.next
        var step = r.bare
        while step < count, freed < excess {
            let i = (oldest + step) % count
            step += 1
            guard let bodies = r.items[i].entry.bodies, bodies.bytes > 0 else { continue }
            freed += bodies.bytes
            r.items[i].entry.bodies = bodies.droppingBodies()
        }
        r.bare = step
        bodyBytes.subtract(freed, ordering: .relaxed)
        return freed
    }

    /// The newest `limit` entries (at most `capacity`), oldest first, and how many requests were ever recorded.
    package func recent(limit: Int) -> (entries: [JournalEntry], total: Int) {
        var all: [(sequence: Int, entry: JournalEntry)] = []
        rings.forEach { r in all.append(contentsOf: r.items) }
        all.sort { $0.sequence < $1.sequence }
        let keep = min(max(0, limit), capacity)
        return (all.suffix(keep).map(\.entry), sequence.load(ordering: .relaxed))
    }

    /// How many requests were ever recorded (since the last reset).
    package var total: Int { sequence.load(ordering: .relaxed) }

    func reset() {
        rings.forEach { $0 = Ring() }
        sequence.store(0, ordering: .relaxed)
        storage.release(bodyBytes.exchange(0, ordering: .relaxed))
    }
}

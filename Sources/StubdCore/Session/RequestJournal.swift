import StubdProtocol
import Synchronization

/// The last N requests (default 1000): rings, so a long test run never grows it. Each worker
/// thread appends to its own ring (no lock contention on the hot path); reading merges them by
/// arrival order and keeps the newest N. A ring grows as requests arrive, so a session that
/// answers a few requests costs a few entries, not N per worker.
package final class RequestJournal: Sendable {
    private struct Ring {
        var items: [(sequence: Int, entry: JournalEntry)] = []
        /// Where the next entry goes once the ring is full.
        var next = 0
    }
    private let rings = ThreadStriped { Ring() }
    private let sequence = Atomic<Int>(0)
    package let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func append(_ entry: JournalEntry) {
        let n = sequence.add(1, ordering: .relaxed).oldValue
        rings.withCurrent { r in
            if r.items.count < capacity {
                r.items.append((n, entry))
            } else {
                r.items[r.next] = (n, entry)
                r.next = (r.next + 1) % capacity
            }
        }
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
    }
}

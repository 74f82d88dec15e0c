import Synchronization

/// One session's part of `SessionStorage`: what its journal, streams and scenarios keep, charged as
/// they keep it and released as they let it go. Closed when the session is evicted or dropped: what
/// it held leaves the total at once, and it keeps nothing more (a socket still open on a dropped
/// session must not fill memory no budget counts).
package final class SessionStorageAccount: Sendable {
    enum Addition { case added, closed(held: Int), overLimit(held: Int) }

    /// Bytes held, or `closedMark` once closed: one atomic, so a release racing the close takes its
    /// bytes out of the total once, whichever comes first.
    private let held = Atomic<Int>(0)
    private static let closedMark = Int.min
    private let storage: SessionStorage?

    init(storage: SessionStorage?) { self.storage = storage }

    /// An account charged against no budget (a session made by a test on its own).
    static func unbounded() -> SessionStorageAccount { SessionStorageAccount(storage: nil) }

    /// Bytes this session holds now.
    package var heldBytes: Int { max(0, held.load(ordering: .relaxed)) }
    var isClosed: Bool { held.load(ordering: .relaxed) == Self.closedMark }

    /// Counts `bytes` (refused: the session keeps nothing more when `SessionStorageFull` is thrown).
    func charge(_ bytes: Int) throws(SessionStorageFull) {
        guard let storage else { return }
        try storage.charge(bytes, to: self)
    }

    /// `charge` without evicting any session: false when `bytes` does not fit now.
    func chargeIfRoom(_ bytes: Int) -> Bool {
        guard let storage else { return true }
        return storage.chargeIfRoom(bytes, to: self)
    }

    func add(_ bytes: Int, limit: Int) -> Addition {
        var current = held.load(ordering: .relaxed)
        while true {
            if current == Self.closedMark { return .closed(held: 0) }
            if current + bytes > limit { return .overLimit(held: current) }
            let (exchanged, original) = held.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return .added }
            current = original
        }
    }

    /// Lets go of `bytes` charged before; nothing once closed (the close took them).
    func release(_ bytes: Int) {
        guard bytes > 0, let storage else { return }
        var current = held.load(ordering: .relaxed)
        while current != Self.closedMark {
            let (exchanged, original) = held.compareExchange(expected: current, desired: current - bytes, ordering: .relaxed)
            if exchanged { return storage.subtract(bytes) }
            current = original
        }
    }

    /// Everything held leaves the total; later charges are refused and releases ignored.
    func close() {
        let was = held.exchange(Self.closedMark, ordering: .relaxed)
        if was != Self.closedMark { storage?.subtract(was) }
    }
}

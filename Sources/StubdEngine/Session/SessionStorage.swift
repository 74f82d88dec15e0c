import StubdProtocol
import Synchronization

/// The whole server's budget for what sessions keep of what they were sent: journal bodies, the
/// messages WebSockets received and the stream journal, scenario keys. Each of those is bounded per
/// session, but clients choose session ids: 1,000 sessions each filling one WebSocket route's 1,000 ×
/// 64 KiB took 537 MB in 4 s. Past `limit`, the session unused longest gives up what it kept (it is
/// evicted, `SessionRegistry`); a write that does not fit even then is refused (`SessionStorageFull`).
package final class SessionStorage: Sendable {
    /// `stubd serve --session-storage` (bytes).
    package let limit: Int
    /// 512 MiB: a session's own bounds (a WebSocket route's 64 MiB, the journal's 16 MiB) fit many times over.
    package static let defaultLimit = 512 << 20
    private let used = Atomic<Int>(0)
    /// Set once by the registry: evicts the session unused longest that holds anything, other than
    /// the one of `sparing`; false when there is none. Called holding no lock of any session.
    private let evictOldest = Locked<(@Sendable (_ sparing: SessionStorageAccount) -> Bool)?>(nil)

    package init(limit: Int = SessionStorage.defaultLimit) { self.limit = max(0, limit) }

    /// Bytes kept by every session together now.
    package var bytesUsed: Int { used.load(ordering: .relaxed) }

    func setEvictor(_ evict: @escaping @Sendable (_ sparing: SessionStorageAccount) -> Bool) {
        evictOldest.withLock { $0 = evict }
    }

    /// A new session's account.
    func account() -> SessionStorageAccount { SessionStorageAccount(storage: self) }

    /// Counts `bytes` for `account`'s session, first evicting the sessions unused longest while the
    /// total is past the budget. Must be called holding no lock of a session's: eviction takes them.
    func charge(_ bytes: Int, to account: SessionStorageAccount) throws(SessionStorageFull) {
        guard bytes > 0 else { return }
        // Added to the total before the account, so whoever takes bytes out of an account takes them out of the total too.
        used.add(bytes, ordering: .relaxed)
        switch account.add(bytes, limit: limit) {
        case .added: break
        case .closed(let held), .overLimit(let held):
            used.subtract(bytes, ordering: .relaxed)
            throw SessionStorageFull(limit: limit, bytes: bytes, held: held)
        }
        while used.load(ordering: .relaxed) > limit {
            guard let evict = evictOldest.withLock({ $0 }), evict(account) else {
                let held = account.heldBytes
                account.release(bytes)
                throw SessionStorageFull(limit: limit, bytes: bytes, held: max(0, held - bytes))
            }
        }
    }

    /// `charge` that evicts nobody: false, with nothing counted, when `bytes` does not fit now. For a
    /// caller holding a session's lock, which must not evict (eviction takes other sessions' locks).
    func chargeIfRoom(_ bytes: Int, to account: SessionStorageAccount) -> Bool {
        guard bytes > 0 else { return true }
        used.add(bytes, ordering: .relaxed)
        guard case .added = account.add(bytes, limit: limit) else {
            used.subtract(bytes, ordering: .relaxed)
            return false
        }
        if used.load(ordering: .relaxed) > limit {
            account.release(bytes)
            return false
        }
        return true
    }

    /// Takes `bytes` out of the total (an account's release or its closing).
    func subtract(_ bytes: Int) {
        if bytes != 0 { used.subtract(bytes, ordering: .relaxed) }
    }
}

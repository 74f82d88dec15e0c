import Foundation
package import StubdProtocol
import Synchronization

/// The sessions a server holds: the default one, and the named ones a request or admin call makes
/// by naming them, bounded by `maxSessions`. A session that is reset, dropped or evicted leaves
/// what it counted to the server's coverage (`retiredCoverage`).
package final class SessionRegistry: Sendable {
    /// The session of requests that name none ("").
    package let defaultSession: SessionState
    private let named = Locked<[String: SessionState]>([:])
    /// The catalog in force (the engine's): a new session starts on its clock, and a retired one is
    /// tallied against it.
    private let catalogs: PublishedValue<StubCatalog>
    let journalCapacity: Int
    /// Named sessions held at once; a new one past it evicts the one unused longest.
    package let maxSessions: Int
    /// Told of events worth a log line (a session evicted).
    private let notice: (@Sendable (String) -> Void)?
    /// What sessions that were reset or evicted had counted: the whole server's coverage is since
    /// it started, while a session's own counts go back to zero with it.
    package let retiredCoverage = Locked(CoverageTally())
    /// What every session keeps, together (`--session-storage`): past it, the session unused longest gives its up.
    package let storage: SessionStorage

    init(catalogs: PublishedValue<StubCatalog>, journalCapacity: Int, maxSessions: Int, storage: SessionStorage = SessionStorage(),
         notice: (@Sendable (String) -> Void)?) {
        self.catalogs = catalogs
        self.journalCapacity = journalCapacity
        self.maxSessions = max(1, maxSessions)
        self.notice = notice
        self.storage = storage
        self.defaultSession = SessionState(id: "", clock: catalogs.value.clock, journalCapacity: journalCapacity, storage: storage.account())
        storage.setEvictor { [weak self] sparing in self?.evictForStorage(sparing: sparing) ?? false }
    }

    /// The session a request or admin call belongs to ("" is the default one). The transport
    /// checks ids first (`RequestTarget.isValidSession`). A new session past `maxSessions` evicts
    /// the one unused longest: any request naming a new id makes a session, so they must be bounded.
    package func session(_ id: String) -> SessionState {
        if id.isEmpty { return defaultSession }
        let now = DispatchTime.now().uptimeNanoseconds
        var evicted: SessionState?
        let session = named.withLock { table in
            if let s = table[id] {
                s.lastUsed.store(now, ordering: .relaxed)
                return s
            }
            if table.count >= maxSessions, let oldest = table.values.min(by: {
                $0.lastUsed.load(ordering: .relaxed) < $1.lastUsed.load(ordering: .relaxed)
            }) {
                table.removeValue(forKey: oldest.id)
                evicted = oldest
            }
            let s = SessionState(id: id, clock: catalogs.value.clock, journalCapacity: journalCapacity, storage: storage.account())
            s.lastUsed.store(now, ordering: .relaxed)
            table[id] = s
            return s
        }
        if let evicted {
            retire(evicted)
            evicted.giveUpStorage()
            evicted.waiters.fireAll()
            let idle = Double(now - evicted.lastUsed.load(ordering: .relaxed)) / 1e9
            notice?("session '\(evicted.id)' evicted after \(Int(idle)) s idle: \(maxSessions) sessions is the cap (--max-sessions); reset sessions when a test ends")
        }
        return session
    }

    /// The default session, then the named ones by id.
    package var sessionList: [SessionState] {
        [defaultSession] + named.withLock { Array($0.values) }.sorted { $0.id < $1.id }
    }

    /// The default session and the named ones, in no order.
    package var allSessions: [SessionState] { [defaultSession] + named.withLock { Array($0.values) } }

    /// How many named sessions the registry holds.
    package var count: Int { named.withLock { $0.count } }

    /// Everything back to the start; every session when `session` is the default one. A named
    /// session is dropped as well (the next request under its id starts a fresh one), so a
    /// long-running daemon does not keep every finished test's state.
    package func reset(_ session: SessionState) {
        if session.id.isEmpty {
            // Dropped, not reset: nothing of theirs is rebuilt only to be freed. Their long-polls answer.
            let dropped = named.withLock { table in defer { table.removeAll() }; return Array(table.values) }
            for s in dropped {
                retire(s)
                // Their sockets may stay open, holding what they received: let go of it now.
                s.giveUpStorage()
                s.waiters.fireAll()
            }
            retire(session)
            session.reset()
        } else {
            named.withLock { _ = $0.removeValue(forKey: session.id) }
            retire(session)
            session.reset()
            session.giveUpStorage()
        }
    }

    /// Evicts the named session unused longest that keeps anything, other than the one of `sparing`,
    /// so the storage budget has room: false when there is none. Its data goes as an evicted
    /// session's does (`session(_:)`), with a log line.
    private func evictForStorage(sparing: SessionStorageAccount) -> Bool {
        let victim: SessionState? = named.withLock { table in
            guard let oldest = table.values.filter({ $0.storage !== sparing && $0.storage.heldBytes > 0 }).min(by: {
                $0.lastUsed.load(ordering: .relaxed) < $1.lastUsed.load(ordering: .relaxed)
            }) else { return nil }
            table.removeValue(forKey: oldest.id)
            return oldest
        }
        guard let victim else { return false }
        let held = victim.storage.heldBytes
        retire(victim)
        victim.giveUpStorage()
        victim.waiters.fireAll()
        notice?("session '\(victim.id)' evicted to free the \(held) bytes it kept: sessions together keep at most \(storage.limit) bytes (--session-storage); reset sessions when a test ends")
        return true
    }

    /// Answers pending long-polls so a stopping server holds no connection.
    package func releaseWaiters() {
        for s in allSessions { s.waiters.fireAll() }
    }

    /// Keeps what a session counted before it is reset or dropped.
    private func retire(_ session: SessionState) {
        let tally = CoverageTally(session, catalog: catalogs.value)
        retiredCoverage.withLock { $0.add(tally) }
    }
}

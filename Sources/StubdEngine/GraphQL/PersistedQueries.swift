import StubdProtocol

/// The queries a session's clients registered by hash (Apollo's automatic persisted queries: the
/// hash alone is answered `PersistedQueryNotFound`, then the client sends hash and query, which
/// registers it). Bounded, as Apollo Server's own cache is: past `capacity` the oldest goes.
package final class PersistedQueries: Sendable {
    /// Apollo Server's default in-memory cache holds about 30 MiB; a test session registers tens.
    static let capacity = 1000
    private let table = Locked<(byHash: [String: String], order: [String])>(([:], []))

    package init() {}

    package func query(for hash: String) -> String? { table.withLock { $0.byHash[hash] } }

    package func register(_ query: String, hash: String) {
        table.withLock { t in
            guard t.byHash.updateValue(query, forKey: hash) == nil else { return }
            t.order.append(hash)
            if t.order.count > Self.capacity { t.byHash[t.order.removeFirst()] = nil }
        }
    }

    package func removeAll() { table.withLock { $0 = ([:], []) } }
}

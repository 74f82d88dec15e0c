package import Foundation
import StubdProtocol
import Synchronization

/// Tells the dashboard's event streams (`GET /__stubd/events`) which sessions changed: a request
/// was journaled, an admin call changed state, the catalog was reloaded. A stream is told, not
/// sent the state: the page fetches what it shows, so 10,000 routes never travel with each hit.
///
/// While nobody watches, `note` is one relaxed load on the request path. Notes are gathered per
/// stream and sent at most every `interval`, so a busy test run costs a watching page a few
/// fetches a second, not one per request.
package final class ChangeFeed: Sendable {
    /// What a stream is sent.
    package enum Event: Sendable, Equatable {
        /// These sessions changed ("*": every session, as after a reset of the default one or a reload).
        case changed([String])
        /// Nothing changed; sent now and then so a client that left is noticed by the failed write.
        case ping
    }

    /// Streams open at once: each holds a connection, so they are bounded as connections are.
    package let maxSubscribers: Int
    package let interval: DispatchTimeInterval
    private let watching = Atomic<Int>(0)
    private let nextID = Atomic<Int>(1)
    private let subscribers = Locked<[Int: Subscriber]>([:])
    private let pinger = Locked<(any DispatchSourceTimer)?>(nil)

    package init(maxSubscribers: Int = 16, interval: DispatchTimeInterval = .milliseconds(100)) {
        self.maxSubscribers = max(1, maxSubscribers)
        self.interval = interval
    }

    /// Open streams.
    package var count: Int { watching.load(ordering: .relaxed) }

    /// Session `id` changed. Free while no stream is open.
    @inline(__always)
    package func note(_ id: String) {
        guard watching.load(ordering: .relaxed) > 0 else { return }
        noteWatched(id)
    }

    private func noteWatched(_ id: String) {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.changed(id) }
    }

    /// A new stream for `session` (nil: every session); `deliver` returns false once the stream
    /// cannot take more (closed, or its client too far behind), which ends the subscription.
    /// Nil when `maxSubscribers` are open.
    package func subscribe(session: String?, deliver: @escaping @Sendable (Event) -> Bool) -> Int? {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        // Weakly: a flush due after the server is gone must find nothing to tell, not a freed feed.
        let subscriber = Subscriber(id: id, session: session, interval: interval, deliver: deliver) { [weak self] in self?.unsubscribe(id) }
        let added = subscribers.withLock { table -> Bool in
            guard table.count < maxSubscribers else { return false }
            table[id] = subscriber
            watching.store(table.count, ordering: .relaxed)
            return true
        }
        guard added else { return nil }
        startPinging()
        return id
    }

    package func unsubscribe(_ id: Int) {
        let empty = subscribers.withLock { table -> Bool in
            table.removeValue(forKey: id)
            watching.store(table.count, ordering: .relaxed)
            return table.isEmpty
        }
        if empty { pinger.withLock { timer in timer?.cancel(); timer = nil } }
    }

    /// Every subscription ended (the server stops); returns their ids.
    @discardableResult
    package func unsubscribeAll() -> [Int] {
        let ids = subscribers.withLock { table -> [Int] in
            defer { table.removeAll(); watching.store(0, ordering: .relaxed) }
            return Array(table.keys)
        }
        pinger.withLock { timer in timer?.cancel(); timer = nil }
        return ids
    }

    private func startPinging() {
        pinger.withLock { timer in
            guard timer == nil else { return }
            let t = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
            t.schedule(deadline: .now() + 15, repeating: 15, leeway: .seconds(1))
            t.setEventHandler { [weak self] in
                guard let self else { return }
                for s in self.subscribers.withLock({ Array($0.values) }) where !s.deliver(.ping) { self.unsubscribe(s.id) }
            }
            t.resume()
            timer = t
        }
    }

    /// One stream's gathered notes, sent once `interval` after the first.
    private final class Subscriber: Sendable {
        let id: Int
        let session: String?
        let interval: DispatchTimeInterval
        let deliver: @Sendable (Event) -> Bool
        let end: @Sendable () -> Void
        private let pending = Locked<(sessions: Set<String>, scheduled: Bool)>(([], false))

        init(id: Int, session: String?, interval: DispatchTimeInterval, deliver: @escaping @Sendable (Event) -> Bool,
             end: @escaping @Sendable () -> Void) {
            self.id = id
            self.session = session
            self.interval = interval
            self.deliver = deliver
            self.end = end
        }

        func changed(_ changed: String) {
            if let session, changed != session, changed != "*" { return }
            let schedule = pending.withLock { p -> Bool in
                // Past 64 sessions the page refetches everything it shows anyway.
                if p.sessions.count < 64 { p.sessions.insert(changed) } else { p.sessions = ["*"] }
                defer { p.scheduled = true }
                return !p.scheduled
            }
            guard schedule else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [self] in
                let sessions = pending.withLock { p -> [String] in
                    defer { p = ([], false) }
                    return p.sessions.sorted()
                }
                if !deliver(.changed(sessions)) { end() }
            }
        }
    }
}

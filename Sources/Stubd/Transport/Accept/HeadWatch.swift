#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StubdProtocol
import Synchronization

/// Connections waiting for a request's head: new ones, and keep-alive ones between requests.
///
/// libmicrohttpd's timeout restarts with every byte, so a client sending one header line every
/// 10 s holds its connection for ever, and 1,000 of them fill the server: every new request, admin
/// calls and the dashboard included, got 503 (issue 38, slowloris). So a head must arrive whole
/// within `deadline` of when the connection began waiting for it, and when the server is full the
/// connection that has waited longest (past a second) gives its place to the new one. A connection
/// inside a request (a long-poll, a delay, a hang) is never touched: it is not waiting for a head.
///
/// What a request costs here is two relaxed stores into its connection's entry (one when its head
/// is in, one when it completes) stamped from a clock this watch ticks once a second.
final class HeadWatch: Sendable {
    /// One connection's place in the watch.
    final class Entry: Sendable {
        let fd: Int32
        /// libmicrohttpd's connection, as a number (identity only; never followed from here).
        let connection: UInt
        /// When it began waiting for a head (uptime nanoseconds); 0 while it is inside a request.
        let waitingSince: Atomic<UInt64>

        init(fd: Int32, connection: UInt, since: UInt64) {
            self.fd = fd
            self.connection = connection
            waitingSince = Atomic(since)
        }
    }

    /// How long a head may take, from when the connection began waiting for it.
    let deadlineNanoseconds: UInt64
    /// A connection must have waited this long before it can be evicted for a new one.
    static let graceNanoseconds: UInt64 = 1_000_000_000
    /// Evicted connections not yet closed: bounds how far past the cap evictions can take the
    /// count while the workers catch up (libmicrohttpd's own limit is the cap plus 64).
    private static let maxLeaving = 32

    private let entries = Locked<[UInt: Entry]>([:])
    private let leaving = Atomic<Int>(0)
    /// Uptime nanoseconds, to within the tick: what a completed request stamps its entry with.
    private let clock = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
    /// Set once in `init`; only `cancel`led after (safe from any thread).
    nonisolated(unsafe) private let ticker: any DispatchSourceTimer

    init(deadlineSeconds: Int) {
        deadlineNanoseconds = UInt64(max(1, deadlineSeconds)) * 1_000_000_000
        ticker = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        ticker.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
        ticker.setEventHandler { [weak self] in
            guard let self else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            clock.store(now, ordering: .relaxed)
            HeadWatch.cutOverdue(entries, now: now, deadline: deadlineNanoseconds)
        }
        ticker.resume()
    }

    func stop() { ticker.cancel() }

    /// A connection has started: it waits for its first head from now.
    func began(fd: Int32, connection: UInt) -> Entry {
        let entry = Entry(fd: fd, connection: connection, since: DispatchTime.now().uptimeNanoseconds)
        entries.withLock { $0[connection] = entry }
        return entry
    }

    /// A connection is closing. libmicrohttpd tells of a close before it closes the socket, so a
    /// socket in the list is still the connection's when the sweep or an eviction shuts it.
    func ended(_ entry: Entry) {
        let evicted = entries.withLock { $0.removeValue(forKey: entry.connection) } == nil
        if evicted { leaving.subtract(1, ordering: .relaxed) }
    }

    /// The connection finished a request and waits for the next head.
    func waiting(_ entry: Entry) { entry.waitingSince.store(clock.load(ordering: .relaxed), ordering: .relaxed) }

    /// The connection's head is in: it is inside a request until `waiting`.
    static func arrived(_ entry: Entry) { entry.waitingSince.store(0, ordering: .relaxed) }

    /// The entries of connections waiting for a head, for `body` to look at under the watch's lock
    /// (a socket in them is still their connection's while it runs).
    func withWaiting<R>(_ body: ([Entry]) -> R) -> R {
        entries.withLock { entries in body(entries.values.filter { $0.waitingSince.load(ordering: .relaxed) != 0 }) }
    }

    /// Shuts the connection that has waited longest for a head, if it has waited past the grace
    /// period; false if none has. Its worker sees the socket shut and closes it, giving its place back.
    func evictLongestWaiting() -> Bool {
        guard leaving.load(ordering: .relaxed) < HeadWatch.maxLeaving else { return false }
        let now = DispatchTime.now().uptimeNanoseconds
        return entries.withLock { entries in
            var oldest: Entry?
            var oldestSince = UInt64.max
            for entry in entries.values {
                let since = entry.waitingSince.load(ordering: .relaxed)
                if since != 0, since < oldestSince { (oldest, oldestSince) = (entry, since) }
            }
            guard let oldest, now > oldestSince, now - oldestSince > HeadWatch.graceNanoseconds else { return false }
            // Out of the list now: `ended` counts it off `leaving` when its close comes.
            entries.removeValue(forKey: oldest.connection)
            leaving.add(1, ordering: .relaxed)
            shutdown(oldest.fd, Int32(SHUT_RDWR))
            return true
        }
    }

    /// Shuts every connection whose head has not arrived within the deadline.
    private static func cutOverdue(_ entries: Locked<[UInt: Entry]>, now: UInt64, deadline: UInt64) {
        entries.withLock { entries in
            for entry in entries.values {
                let since = entry.waitingSince.load(ordering: .relaxed)
                guard since != 0, now > since, now - since > deadline else { continue }
                entry.waitingSince.store(0, ordering: .relaxed)
                shutdown(entry.fd, Int32(SHUT_RDWR))
            }
        }
    }
}

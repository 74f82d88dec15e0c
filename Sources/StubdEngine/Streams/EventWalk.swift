package import Foundation
import StubdProtocol

/// One client's walk through a stub's server-sent events, whatever carries the bytes: which event
/// is due (by the session's virtual clock when it has one, so only an advance brings the next
/// event, else by the wall clock), and each one sent counted in the session's stream traffic and
/// journaled, so `waitForStream`, coverage and the journal see the same whichever front sent it.
/// The libmicrohttpd front (`EventStreamBody`) and the in-process one (`EventDelivery`) only
/// carry the frames and wait as their transport waits.
package final class EventWalk: Sendable {
    package let stream: EventStream
    /// Where the ending cuts in (a drop or stall), or the end of the events.
    package let end: Int
    private let first: Int
    /// Nanoseconds after the start each event from `first` on is due (each delay sampled once, at the open).
    private let due: [UInt64]
    private let clock: SessionClock
    /// When the stream opened: on the wall clock (uptime nanoseconds), and on the virtual clock when it is one.
    private let startedUptime = DispatchTime.now().uptimeNanoseconds
    private let startedVirtual: Date?
    private let traffic: StreamTraffic
    private let route: String
    private let journal: (log: StreamJournal, connection: Int)?
    /// A front may wait on one thread and be closed from another (a client leaving).
    private let progress = Locked<(next: Int, closed: Bool)>((0, false))

    /// Opens the walk from event `first` (after a `Last-Event-ID`): counted as an open stream of `route`.
    package init(stream: EventStream, from first: Int, clock: SessionClock, traffic: StreamTraffic, route: String,
                 journal: (log: StreamJournal, connection: Int)?) {
        self.stream = stream
        self.first = first
        end = first + stream.sendable(from: first)
        self.clock = clock
        self.traffic = traffic
        self.route = route
        self.journal = journal
        startedVirtual = clock.isVirtual ? clock.now() : nil
        var at: UInt64 = 0
        due = stream.events[first..<end].map { event in
            at &+= event.delay?.sample() ?? 0
            return at
        }
        progress.withLock { $0.next = first }
        traffic.streamOpened(route: route)
    }

    /// The index of the next event to send (`end` once every sendable one went).
    package var next: Int { progress.withLock { $0.next } }

    /// The session's clock when it is virtual: the next event waits for an advance on it.
    package var virtualClock: SessionClock? { startedVirtual == nil ? nil : clock }

    /// Whether event `index` may go now.
    package func isDue(_ index: Int) -> Bool {
        let at = due[index - first]
        if at == 0 { return true }
        if let startedVirtual { return clock.now() >= startedVirtual.addingTimeInterval(Double(at) / 1e9) }
        return DispatchTime.now().uptimeNanoseconds - startedUptime >= at
    }

    /// When event `index` is due on the virtual clock (nil on the wall clock).
    package func virtualDueDate(_ index: Int) -> Date? {
        startedVirtual?.addingTimeInterval(Double(due[index - first]) / 1e9)
    }

    /// Wall-clock nanoseconds until event `index` is due (0 when it is).
    package func nanosecondsUntilDue(_ index: Int) -> UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds - startedUptime
        let at = due[index - first]
        return at > now ? at - now : 0
    }

    /// Event `index` has gone out whole: counted, journaled, and the walk moves past it.
    package func sent(_ index: Int) {
        let text = String(decoding: stream.frames[index], as: UTF8.self)
        traffic.sent(text.split(separator: "\n").joined(separator: " "), route: route)
        if let journal {
            journal.log.record(.text(text), .sent, at: clock.now(), connection: journal.connection, index: index - first + 1)
        }
        progress.withLock { $0.next = index + 1 }
    }

    /// The stream is over or its client left: how far it got, for coverage, and its place among the
    /// session's open streams given up. True the first time only.
    @discardableResult
    package func close() -> Bool {
        let (wasClosed, reached) = progress.withLock { progress -> (Bool, Int) in
            defer { progress.closed = true }
            return (progress.closed, progress.next)
        }
        guard !wasClosed else { return false }
        traffic.streamReached(reached, ended: reached == end, route: route)
        traffic.streamClosed(route: route)
        return true
    }

    /// Whether `close()` was called.
    package var isClosed: Bool { progress.withLock { $0.closed } }
}

import Foundation
import HTTPTypes
import StubdEngine
import StubdProtocol

/// A stub's server-sent events carried to URLSession each when due, as `EventStreamBody` sends them
/// on a socket: by the session's virtual clock when it has one (only an advance brings the next
/// event), else by the wall clock; counted in the session's stream traffic and journaled, so
/// `waitForStream`, coverage and the journal see them. Each event is one `didLoad`: a
/// `URLSessionDataDelegate` (`ServerSentEventReader`), or `bytes(for:)` on Apple's platforms,
/// reads them as they come.
final class EventDelivery: @unchecked Sendable {
    private let stream: EventStream
    private let first: Int
    private let end: Int
    private let session: SessionState
    private let route: String
    private let journal: Int?
    private let delivery: AnswerDelivery
    /// Nanoseconds after the start each event from `first` on is due (each delay sampled once, at the open).
    private let due: [UInt64]
    private let startedUptime = DispatchTime.now().uptimeNanoseconds
    private let startedVirtual: Date?
    private let lock = NSLock()
    private var next: Int
    private var closed = false

    init(_ stream: EventStream, from first: Int, session: SessionState, route: String, journal: Int?, to delivery: AnswerDelivery) {
        self.stream = stream
        self.first = first
        end = first + stream.sendable(from: first)
        next = first
        self.session = session
        self.route = route
        self.journal = journal
        self.delivery = delivery
        startedVirtual = session.clock.isVirtual ? session.clock.now() : nil
        var at: UInt64 = 0
        due = stream.events[first..<end].map { event in
            at &+= event.delay?.sample() ?? 0
            return at
        }
    }

    func start(status: Int, headers: HTTPFields) {
        session.streams.streamOpened(route: route)
        delivery.onStop { [self] in close() }
        delivery.respond(status, headers, length: nil)
        step()
    }

    /// Sends every event that is due, then waits for the next one, or ends as the stream's ending says.
    private func step() {
        while true {
            guard let index = lock.withLock({ () -> Int? in closed ? nil : next }) else { return }
            if index == end { return ending() }
            guard isDue(index) else { return wait(for: index) }
            send(index)
        }
    }

    private func send(_ index: Int) {
        let frame = stream.frames[index]
        delivery.load(frame)
        let text = String(decoding: frame, as: UTF8.self)
        session.streams.sent(text.split(separator: "\n").joined(separator: " "), route: route)
        if let journal {
            session.streamJournal.record(.text(text), .sent, at: session.clock.now(), connection: journal, index: index - first + 1)
        }
        lock.withLock { next = index + 1 }
    }

    private func ending() {
        switch stream.ending {
        case .complete:
            close()
            delivery.finish()
        case .drop:
            close()
            delivery.fail(URLError(.networkConnectionLost))
        case .stall:
            // Held like a hang: the request's timeout ends it.
            delivery.after(delivery.requestTimeoutNanoseconds) { [self] in
                close()
                delivery.fail(URLError(.timedOut))
            }
        }
    }

    private func isDue(_ index: Int) -> Bool {
        let at = due[index - first]
        if at == 0 { return true }
        if let startedVirtual { return session.clock.now() >= startedVirtual.addingTimeInterval(Double(at) / 1e9) }
        return DispatchTime.now().uptimeNanoseconds - startedUptime >= at
    }

    private func wait(for index: Int) {
        let at = due[index - first]
        if let startedVirtual {
            let clock = session.clock
            guard let alarm = clock.alarm(at: startedVirtual.addingTimeInterval(Double(at) / 1e9), { [self] in step() }) else {
                return step()
            }
            delivery.onStop { clock.cancelAlarm(alarm) }
            return
        }
        let now = DispatchTime.now().uptimeNanoseconds - startedUptime
        delivery.after(at > now ? at - now : 0) { [self] in step() }
    }

    /// How far the stream got, for coverage, and its place among the session's open streams: once.
    private func close() {
        let (wasClosed, reached) = lock.withLock { () -> (Bool, Int) in
            defer { closed = true }
            return (closed, next)
        }
        guard !wasClosed else { return }
        session.streams.streamReached(reached, ended: reached == end, route: route)
        session.streams.streamClosed(route: route)
    }
}

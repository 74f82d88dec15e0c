import Foundation
import HTTPTypes
import StubdEngine
import StubdProtocol

/// A stub's server-sent events carried to URLSession each when due, as `EventStreamBody` sends them
/// on a socket: which event is due, and the counting and journaling of each, is the engine's
/// `EventWalk`, shared with that front. Each event is one `didLoad`: a
/// `URLSessionDataDelegate` (`ServerSentEventReader`), or `bytes(for:)` on Apple's platforms,
/// reads them as they come.
final class EventDelivery: @unchecked Sendable {
    /// Which event is due, and each one sent counted and journaled (shared with the socket's front).
    private let walk: EventWalk
    private let delivery: AnswerDelivery

    init(_ stream: EventStream, from first: Int, session: SessionState, route: String, journal: Int?, to delivery: AnswerDelivery) {
        walk = EventWalk(stream: stream, from: first, clock: session.clock, traffic: session.streams, route: route,
                         journal: journal.map { (log: session.streamJournal, connection: $0) })
        self.delivery = delivery
    }

    func start(status: Int, headers: HTTPFields) {
        delivery.onStop { [walk] in walk.close() }
        delivery.respond(status, headers, length: nil)
        step()
    }

    /// Sends every event that is due, then waits for the next one, or ends as the stream's ending says.
    private func step() {
        while !walk.isClosed {
            let index = walk.next
            if index == walk.end { return ending() }
            guard walk.isDue(index) else { return wait(for: index) }
            delivery.load(walk.stream.frames[index])
            walk.sent(index)
        }
    }

    private func ending() {
        switch walk.stream.ending {
        case .complete:
            walk.close()
            delivery.finish()
        case .drop:
            walk.close()
            delivery.fail(URLError(.networkConnectionLost))
        case .stall:
            // Held like a hang: the request's timeout ends it.
            delivery.after(delivery.requestTimeoutNanoseconds) { [self] in
                walk.close()
                delivery.fail(URLError(.timedOut))
            }
        }
    }

    private func wait(for index: Int) {
        if let clock = walk.virtualClock, let dueDate = walk.virtualDueDate(index) {
            guard let alarm = clock.alarm(at: dueDate, { [self] in step() }) else { return step() }
            delivery.onStop { clock.cancelAlarm(alarm) }
            return
        }
        delivery.after(walk.nanosecondsUntilDue(index)) { [self] in step() }
    }
}

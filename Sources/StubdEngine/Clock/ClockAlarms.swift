import Foundation
import StubdProtocol

/// Wake-ups set for a time on a virtual clock: a stream's next event is due when the admin API moves
/// the clock past it, not when a timer fires. Each rings once, from the thread that moved the clock.
package final class ClockAlarms: Sendable {
    private struct Alarm {
        let time: Date
        let wake: @Sendable () -> Void
    }
    private let state = Locked<(next: Int, alarms: [Int: Alarm])>((1, [:]))

    /// Rings `wake` once `now()` reaches `time`, and returns the alarm's id to cancel it; nil, ringing
    /// nothing, when `time` has come already (checked under the lock `ring` takes, so no move is missed).
    func set(at time: Date, now: () -> Date, _ wake: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { s -> Int? in
            if now() >= time { return nil }
            defer { s.next += 1 }
            s.alarms[s.next] = Alarm(time: time, wake: wake)
            return s.next
        }
    }

    func cancel(_ id: Int) { state.withLock { _ = $0.alarms.removeValue(forKey: id) } }

    /// Rings every alarm whose time `now` has reached.
    func ring(now: Date) {
        let due = state.withLock { s -> [Alarm] in
            let due = s.alarms.filter { $0.value.time <= now }
            for id in due.keys { s.alarms.removeValue(forKey: id) }
            return Array(due.values)
        }
        for alarm in due { alarm.wake() }
    }

    /// Alarms waiting, for tests and the measurement of open streams.
    var count: Int { state.withLock { $0.alarms.count } }
}

package import Foundation
import Synchronization

/// The time a session's quotas see: the wall clock or a virtual start, plus whatever the
/// admin API has moved it by. Each session has its own, so parallel tests can move time
/// without moving it for each other.
package final class SessionClock: Sendable {
    /// The times a session's clock can show: from the Unix epoch to the last second of 9999, the
    /// years ISO 8601 writes with four digits. Moves past either end are refused, never wrapped.
    package static let range = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    private let setting: ClockSetting
    /// Microseconds added by the admin API; read on every quota'd request, so no lock. Microseconds
    /// rather than nanoseconds so any move within `range` fits in 64 bits (nanoseconds overflow at 292 years).
    private let offset = Atomic<Int64>(0)

    /// Streams waiting for the clock to reach their next event (only a virtual clock has any).
    private let alarms = ClockAlarms()

    init(_ setting: ClockSetting) { self.setting = setting }

    /// Calls `wake` once this clock shows `time`, and returns an id for `cancelAlarm`; nil (calling
    /// nothing) when it shows it already. Only the admin API moves a virtual clock, so only its
    /// moves ring; a wall clock's alarms would wait for the next move, so the transport times those itself.
    package func alarm(at time: Date, _ wake: @escaping @Sendable () -> Void) -> Int? {
        alarms.set(at: time, now: { now() }, wake)
    }

    package func cancelAlarm(_ id: Int) { alarms.cancel(id) }

    package var isVirtual: Bool { if case .virtual = setting { true } else { false } }

    /// Seconds the admin API has moved this clock (advances and sets) from its start or the wall clock.
    package var offsetSeconds: Double { Double(offset.load(ordering: .relaxed)) / 1e6 }

    package func now() -> Date { now(wall: Date()) }

    /// The session's time when the wall clock reads `wall`: a request reads the wall clock once
    /// for its journal entry and its quotas.
    func now(wall: Date) -> Date {
        time(wall: wall, offset: offset.load(ordering: .relaxed))
    }

    /// The time the clock shows: a wall clock set near the end of `range` runs on into it and stops
    /// there, rather than show a year of five digits.
    private func time(wall: Date, offset: Int64) -> Date {
        min(unbounded(wall: wall, offset: offset), SessionClock.range.upperBound)
    }

    private func unbounded(wall: Date, offset: Int64) -> Date {
        base(wall: wall).addingTimeInterval(Double(offset) / 1e6)
    }

    /// What the offset is added to.
    private func base(wall: Date) -> Date {
        switch setting {
        case .system: return wall
        case .virtual(let start): return start
        }
    }

    /// Moves the clock forward from the time it shows. Throws, moving nothing, when `seconds` is
    /// negative or not finite, or when the clock would leave `range`; a move by 0 always stands.
    package func advance(by seconds: Double) throws(ClockMoveError) {
        let span = SessionClock.range.upperBound.timeIntervalSince(SessionClock.range.lowerBound)
        guard seconds.isFinite, seconds >= 0, seconds <= span else { throw .badAdvance(seconds) }
        let step = Int64((seconds * 1e6).rounded())
        var old = offset.load(ordering: .relaxed)
        while true {
            let wall = Date()
            let shown = time(wall: wall, offset: old)
            guard shown.addingTimeInterval(seconds) <= SessionClock.range.upperBound else { throw .outOfRange(seconds, from: shown) }
            // A wall clock that ran into the end of the range moves on from where it stopped, not from
            // where its offset points: else no move, not even by 0, would ever stand again.
            let from = unbounded(wall: wall, offset: old) > shown
                ? Int64((shown.timeIntervalSince(base(wall: wall)) * 1e6).rounded(.down)) : old
            let new = from + step // cannot overflow: both are within a few times `span` in microseconds
            let (exchanged, original) = offset.compareExchange(expected: old, desired: new, ordering: .relaxed)
            if exchanged { alarms.ring(now: now()); return }
            old = original
        }
    }

    /// Sets the clock to `date`, which must lie within `range`.
    package func set(to date: Date) throws(ClockMoveError) {
        guard SessionClock.range.contains(date) else { throw .dateOutOfRange(date) }
        let base: Date
        switch setting {
        case .system: base = Date()
        case .virtual(let start): base = start
        }
        offset.store(Int64((date.timeIntervalSince(base) * 1e6).rounded()), ordering: .relaxed)
        alarms.ring(now: now())
    }

    func reset() { offset.store(0, ordering: .relaxed) }
}

import Foundation
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

    init(_ setting: ClockSetting) { self.setting = setting }

    package var isVirtual: Bool { if case .virtual = setting { true } else { false } }

    /// Seconds the admin API has moved this clock (advances and sets) from its start or the wall clock.
    package var offsetSeconds: Double { Double(offset.load(ordering: .relaxed)) / 1e6 }

    package func now() -> Date { now(wall: Date()) }

    /// The session's time when the wall clock reads `wall`: a request reads the wall clock once
    /// for its journal entry and its quotas.
    func now(wall: Date) -> Date {
        time(wall: wall, offset: offset.load(ordering: .relaxed))
    }

    private func time(wall: Date, offset: Int64) -> Date {
        let shift = Double(offset) / 1e6
        switch setting {
        case .system: return wall.addingTimeInterval(shift)
        case .virtual(let start): return start.addingTimeInterval(shift)
        }
    }

    /// Moves the clock forward. Throws, moving nothing, when `seconds` is negative or not finite,
    /// or when the clock would leave `range`.
    package func advance(by seconds: Double) throws(ClockMoveError) {
        let span = SessionClock.range.upperBound.timeIntervalSince(SessionClock.range.lowerBound)
        guard seconds.isFinite, seconds >= 0, seconds <= span else { throw .badAdvance(seconds) }
        let step = Int64((seconds * 1e6).rounded())
        var old = offset.load(ordering: .relaxed)
        while true {
            let new = old + step // cannot overflow: both are within a few times `span` in microseconds
            guard SessionClock.range.contains(time(wall: Date(), offset: new)) else { throw .outOfRange(seconds) }
            let (exchanged, original) = offset.compareExchange(expected: old, desired: new, ordering: .relaxed)
            if exchanged { return }
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
    }

    func reset() { offset.store(0, ordering: .relaxed) }
}

package import Foundation

/// Why the admin API refused to move a session's clock.
package enum ClockMoveError: Error, Sendable, CustomStringConvertible {
    case badAdvance(Double)
    case outOfRange(Double, from: Date)
    case dateOutOfRange(Date)

    package var description: String {
        let limits = "1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z"
        switch self {
        case .badAdvance(let s):
            return "seconds must be a finite number from 0 to \(Int(SessionClock.range.upperBound.timeIntervalSince1970)), got \(s)"
        case .outOfRange(let s, let now):
            let room = max(0, SessionClock.range.upperBound.timeIntervalSince(now))
            return "advancing by \(s) seconds would take the clock past 9999-12-31T23:59:59Z: it shows \(JournalEntry.timeFormat(now)), "
                + "\(room) seconds before; the clock stays within \(limits) (set it back with POST /__stubd/clock/set)"
        case .dateOutOfRange:
            return "the time must lie within \(limits)"
        }
    }
}

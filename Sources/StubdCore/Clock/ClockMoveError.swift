import Foundation

/// Why the admin API refused to move a session's clock.
package enum ClockMoveError: Error, Sendable, CustomStringConvertible {
    case badAdvance(Double)
    case outOfRange(Double)
    case dateOutOfRange(Date)

    package var description: String {
        let limits = "1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z"
        switch self {
        case .badAdvance(let s):
            return "seconds must be a finite number from 0 to \(Int(SessionClock.range.upperBound.timeIntervalSince1970)), got \(s)"
        case .outOfRange(let s):
            return "advancing by \(s) seconds would take the clock past 9999-12-31T23:59:59Z; the clock stays within \(limits)"
        case .dateOutOfRange:
            return "the time must lie within \(limits)"
        }
    }
}

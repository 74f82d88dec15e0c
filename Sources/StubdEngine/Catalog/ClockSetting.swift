package import Foundation

/// How the server tells time: the wall clock, or a virtual clock that only the admin API moves.
package enum ClockSetting: Sendable, Equatable {
    case system
    case virtual(start: Date)
}

import Foundation
import Synchronization

/// The time a session's quotas see: the wall clock or a virtual start, plus whatever the
/// admin API has moved it by. Each session has its own, so parallel tests can move time
/// without moving it for each other.
public final class SessionClock: Sendable {
    private let setting: ClockSetting
    private let offset = Mutex<Double>(0)

    init(_ setting: ClockSetting) { self.setting = setting }

    public var isVirtual: Bool { if case .virtual = setting { true } else { false } }

    public func now() -> Date {
        let shift = offset.withLock { $0 }
        switch setting {
        case .system: return Date(timeIntervalSinceNow: shift)
        case .virtual(let start): return start.addingTimeInterval(shift)
        }
    }

    public func advance(by seconds: Double) {
        offset.withLock { $0 += seconds }
    }

    public func set(to date: Date) {
        let base: Date
        switch setting {
        case .system: base = Date()
        case .virtual(let start): base = start
        }
        offset.withLock { $0 = date.timeIntervalSince(base) }
    }

    func reset() { offset.withLock { $0 = 0 } }
}

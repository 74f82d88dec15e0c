import Foundation
import Synchronization

/// The time a session's quotas see: the wall clock or a virtual start, plus whatever the
/// admin API has moved it by. Each session has its own, so parallel tests can move time
/// without moving it for each other.
public final class SessionClock: Sendable {
    private let setting: ClockSetting
    /// Nanoseconds added by the admin API; read on every quota'd request, so no lock.
    private let offset = Atomic<Int64>(0)

    init(_ setting: ClockSetting) { self.setting = setting }

    public var isVirtual: Bool { if case .virtual = setting { true } else { false } }

    public func now() -> Date { now(wall: Date()) }

    /// The session's time when the wall clock reads `wall`: a request reads the wall clock once
    /// for its journal entry and its quotas.
    func now(wall: Date) -> Date {
        let shift = Double(offset.load(ordering: .relaxed)) / 1e9
        switch setting {
        case .system: return wall.addingTimeInterval(shift)
        case .virtual(let start): return start.addingTimeInterval(shift)
        }
    }

    public func advance(by seconds: Double) {
        offset.add(Int64(seconds * 1e9), ordering: .relaxed)
    }

    public func set(to date: Date) {
        let base: Date
        switch setting {
        case .system: base = Date()
        case .virtual(let start): base = start
        }
        offset.store(Int64(date.timeIntervalSince(base) * 1e9), ordering: .relaxed)
    }

    func reset() { offset.store(0, ordering: .relaxed) }
}

import Foundation

/// `GET /__stubd/clock` (and the answer to moving it): the session clock's time.
public struct ClockReport: Sendable, Equatable, Codable {
    /// ISO 8601.
    public let now: String
    /// Whole seconds since 1970.
    public let epoch: Int
    /// A virtual clock moves only through the admin API.
    public let virtual: Bool
    public let session: String
    public init(now: String, epoch: Int, virtual: Bool, session: String) {
        self.now = now; self.epoch = epoch; self.virtual = virtual; self.session = session
    }
}

/// `POST /__stubd/clock/advance`: moves the session's clock forward.
public struct ClockAdvance: Sendable, Equatable, Codable {
    public let seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
}

/// `POST /__stubd/clock/set`: sets the session's clock (ISO 8601, e.g. `2016-08-30T00:00:00-04:00`).
public struct ClockSet: Sendable, Equatable, Codable {
    public let time: String
    public init(time: String) { self.time = time }
}

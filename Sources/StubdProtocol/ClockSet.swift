/// `POST /__stubd/clock/set`: sets the session's clock (ISO 8601, e.g. `2016-08-30T00:00:00-04:00`).
public struct ClockSet: Sendable, Equatable, Codable {
    /// The time to set, RFC 3339 with its offset (`2016-08-30T00:00:00-04:00`).
    public let time: String
    /// A request to set the clock to `time`.
    public init(time: String) { self.time = time }
}

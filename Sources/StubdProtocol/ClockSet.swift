/// `POST /__stubd/clock/set`: sets the session's clock (ISO 8601, e.g. `2016-08-30T00:00:00-04:00`).
public struct ClockSet: Sendable, Equatable, Codable {
    public let time: String
    public init(time: String) { self.time = time }
}

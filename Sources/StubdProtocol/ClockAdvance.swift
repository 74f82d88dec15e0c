/// `POST /__stubd/clock/advance`: moves the session's clock forward.
public struct ClockAdvance: Sendable, Equatable, Codable {
    public let seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
}

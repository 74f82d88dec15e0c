/// `POST /__stubd/clock/advance`: moves the session's clock forward.
public struct ClockAdvance: Sendable, Equatable, Codable {
    /// How far to move the clock, in seconds (fractions allowed); a negative number is refused with a 400.
    public let seconds: Double
    /// A move of `seconds` seconds.
    public init(seconds: Double) { self.seconds = seconds }
}

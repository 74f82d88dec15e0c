/// `GET /__stubd/clock` (and the answer to moving it): the session clock's time.
public struct ClockReport: Sendable, Equatable, Codable {
    /// ISO 8601.
    public let now: String
    /// Whole seconds since 1970.
    public let epoch: Int
    /// True for the manifest's `clock: { virtual: … }`: the time stands still between admin moves.
    /// False for `clock: system`: it runs with the wall clock, plus `offsetSeconds`. (Named for what
    /// it tells; it was `virtual`, which read `false` right after the clock had been moved.)
    public let frozen: Bool
    /// How far `clock/advance` and `clock/set` have moved this session's clock from where it would
    /// stand (the virtual start, or the wall clock); 0 after a reset.
    public let offsetSeconds: Double
    /// The session whose clock this is; `""` for the default session.
    public let session: String
    /// A report with the fields given (the server fills them; a client decodes them).
    public init(now: String, epoch: Int, frozen: Bool, offsetSeconds: Double, session: String) {
        self.now = now; self.epoch = epoch; self.frozen = frozen; self.offsetSeconds = offsetSeconds; self.session = session
    }
}

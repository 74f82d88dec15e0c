/// `POST /__stubd/reset`: what was reset.
public struct ResetDone: Sendable, Equatable, Codable {
    /// Always true: the reset was done.
    public let reset: Bool
    /// The session reset; `""` for the default one, whose reset drops every named session too.
    public let session: String
    /// The answer to resetting `session`.
    public init(session: String) { self.reset = true; self.session = session }
}

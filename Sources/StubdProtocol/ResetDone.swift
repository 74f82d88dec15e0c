/// `POST /__stubd/reset`: what was reset.
public struct ResetDone: Sendable, Equatable, Codable {
    public let reset: Bool
    public let session: String
    public init(session: String) { self.reset = true; self.session = session }
}

/// `PUT /__stubd/prefer` and its answer: the `Prefer` header a session's requests are matched with
/// when they carry none, so a test picks an answer of a route written for Prism's convention
/// (`code=429`, `example=rainy`, as `stubd openapi import` writes them) without the app sending a
/// header. `prefer: nil` (or `DELETE /__stubd/prefer`) stops it; a session reset does too.
public struct PreferDocument: Sendable, Equatable, Codable {
    public let prefer: String?
    public let session: String?
    public init(prefer: String?, session: String? = nil) {
        self.prefer = prefer
        self.session = session
    }
}

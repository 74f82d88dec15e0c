/// `PUT /__stubd/prefer` and its answer: the `Prefer` header a session's requests are matched with
/// when they carry none, so a test picks an answer of a route written for Prism's convention
/// (`code=429`, `example=rainy`, as `stubd openapi import` writes them) without the app sending a
/// header. `prefer: nil` (or `DELETE /__stubd/prefer`) stops it; a session reset does too.
public struct PreferDocument: Sendable, Equatable, Codable {
    /// A `Prefer` value: `code=429`, `example=rainy`, or both as `code=200, example=NAME`; nil when none is set.
    public let prefer: String?
    /// The session it applies to (`""` for the default one); set in the server's answers, left out of requests.
    public let session: String?
    /// A document setting the preference, or with `prefer` nil stopping it.
    public init(prefer: String?, session: String? = nil) {
        self.prefer = prefer
        self.session = session
    }
}

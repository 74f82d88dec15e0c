/// What went wrong setting up TLS, worded for the person who can fix it.
public struct TLSSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

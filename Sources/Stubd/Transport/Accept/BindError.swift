/// Why the server could not listen, in words that name the address and what to do.
public struct BindError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

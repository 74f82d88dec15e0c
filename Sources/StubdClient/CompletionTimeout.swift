/// A completion block that was never called within its deadline.
public struct CompletionTimeout: Error, Sendable, CustomStringConvertible {
    public let timeout: Duration
    public var description: String { "the completion block was not called within \(timeout)" }
}

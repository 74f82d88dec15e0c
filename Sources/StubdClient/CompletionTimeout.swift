/// A completion block that was never called within its deadline.
public struct CompletionTimeout: Error, Sendable, CustomStringConvertible {
    /// The deadline `awaitCompletion(timeout:_:)` was given.
    public let timeout: Duration
    /// `the completion block was not called within 2.0 seconds`, for the test log.
    public var description: String { "the completion block was not called within \(timeout)" }
}

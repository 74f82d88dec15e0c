import StubdProtocol

/// One of the locks concrete-path counts are spread over.
final class PathCountStripe: Sendable {
    let table = Locked(PathCounts())
}

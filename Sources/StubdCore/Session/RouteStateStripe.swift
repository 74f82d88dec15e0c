import StubdProtocol

final class RouteStateStripe: Sendable {
    let cache = Locked(RouteStateCache())
}
